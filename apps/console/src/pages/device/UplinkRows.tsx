import type { UplinkRecordWire } from '@dts/domain';
import { type Column, DataTable } from '../../components/DataTable';
import { num, plural, utcText } from '../../lib/format';

/** The decoded payload as one line of `member: value`. */
function decodedText(decoded: Record<string, unknown>): string {
  return Object.entries(decoded)
    .map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
    .join(', ');
}

const COLUMNS: Column<UplinkRecordWire>[] = [
  { key: 'time', header: 'Received (UTC)', className: 'nowrap mono', render: (r) => utcText(r.uplink.time_stamp_unix) },
  { key: 'port', header: 'Port', className: 'num', render: (r) => r.payload_port },
  { key: 'hex', header: 'Payload (hex)', className: 'mono clip', render: (r) => r.payload_hex },
  {
    key: 'decoded',
    header: 'Decoded',
    className: 'clip',
    render: (r) =>
      r.payload_valid === false ? (
        <span title={r.payload_errors.join('\n') || undefined}>
          <span className="badge badge-bad">invalid</span> {r.payload_errors.join('; ') || decodedText(r.payload_decoded) || 'the decoder refused the payload'}
        </span>
      ) : r.payload_warnings.length > 0 ? (
        <span title={r.payload_warnings.join('\n')}>
          <span className="badge badge-warn">{r.payload_warnings.length === 1 ? 'warning' : plural(r.payload_warnings.length, 'warning')}</span>{' '}
          {decodedText(r.payload_decoded) || '–'}
        </span>
      ) : (
        decodedText(r.payload_decoded) || '–'
      ),
  },
  { key: 'rssi', header: 'RSSI', className: 'num', render: (r) => num(r.uplink.RSSI, 0, 'dBm') },
  { key: 'snr', header: 'SNR', className: 'num', render: (r) => num(r.uplink.SNR, 1, 'dB') },
  { key: 'sf', header: 'SF', className: 'num', render: (r) => (r.uplink.SF === null ? '–' : `SF${r.uplink.SF}`) },
  { key: 'network', header: 'Network', render: (r) => r.uplink.network },
];

export function UplinkRows({
  caption,
  rows,
  onEndReached,
  maxHeight,
}: {
  caption: string;
  rows: readonly UplinkRecordWire[];
  onEndReached?: () => void;
  maxHeight?: string;
}) {
  return (
    <DataTable caption={caption} columns={COLUMNS} rows={rows} rowKey={(r) => r.uplink.uid} onEndReached={onEndReached} maxHeight={maxHeight} rowHeight={40} />
  );
}
