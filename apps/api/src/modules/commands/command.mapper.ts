import { bytesToAscii, bytesToBase64, bytesToHex, type CommandWire, formatSqlTimestamp } from '@dts/domain';
import type { CommandRow } from '@dts/persistence';

/** The payload in all three encodings at once, as the spec shows commands. */
export function toCommandWire(row: CommandRow): CommandWire {
  return {
    uid: row.uid,
    time_stamp: formatSqlTimestamp(row.created_at),
    status: row.status,
    network: row.network ?? 'unknown',
    devEUI: row.eui,
    confirmed: row.confirmed ? 1 : 0,
    port: row.port,
    payload_base64: bytesToBase64(row.payload),
    payload_hex: bytesToHex(row.payload),
    payload_ASCII: bytesToAscii(row.payload),
    reason: row.reason,
  };
}
