import { COLUMN_DATA_TYPES, filterMember, lastDataRowUid, RECORD_COLUMN_MEMBERS, type StoredUplink, toDataRowWire, toUplinkRecordWire } from './uplink-mapping';

/*
 * toUplinkRecordWire writes RECORD_COLUMN_MEMBERS out by hand (for speed): these hold its lines to
 * the list, member by member, and the filter's readers to COLUMN_DATA_TYPES.
 */

/** A stored row whose every column of a record member holds a value no other column holds. */
function distinctRow(): StoredUplink {
  const row: Record<string, unknown> = {
    uid: '41',
    received_at: new Date('2026-05-01T12:00:00Z'),
    port: 3,
    payload: Uint8Array.of(1, 2),
    sf: 9,
    rssi: -97.6,
    snr: 6.25,
    decoded: { co2: 612 },
    valid: true,
    payload_errors: null,
    payload_warnings: null,
    ts_device: null,
    ts_gps: null,
    api_ref: null,
    network: 'ChirpStack',
  };
  RECORD_COLUMN_MEMBERS.forEach((m, i) => (row[m.column] = m.type === 'text' ? `text ${i}` : 1000 + i + 0.5));
  return row as unknown as StoredUplink;
}
const DEVICE = { uid: 5, eui: '0011223344556677', ownerId: 8 };

describe('the uplink record and RECORD_COLUMN_MEMBERS', () => {
  const row = distinctRow();
  const record = toUplinkRecordWire(row, DEVICE) as unknown as Record<string, unknown>;

  it.each(RECORD_COLUMN_MEMBERS.map((m) => [m.key, m.column] as const))('writes %s from column %s', (key, column) => {
    expect(record[key]).toBe((row as unknown as Record<string, unknown>)[column]);
  });

  it('writes the members last, in their order', () => {
    const keys = Object.keys(record);
    expect(keys.slice(keys.length - RECORD_COLUMN_MEMBERS.length)).toEqual(RECORD_COLUMN_MEMBERS.map((m) => m.key));
  });

  it('writes NULL columns as null', () => {
    const empty = { ...row } as unknown as Record<string, unknown>;
    for (const m of RECORD_COLUMN_MEMBERS) empty[m.column] = null;
    const written = toUplinkRecordWire(empty as unknown as StoredUplink, DEVICE) as unknown as Record<string, unknown>;
    expect(RECORD_COLUMN_MEMBERS.filter((m) => written[m.key] !== null).map((m) => m.key)).toEqual([]);
  });
});

describe('data types stored in columns', () => {
  const row = distinctRow();
  const known = new Set(Object.keys(COLUMN_DATA_TYPES));

  it('reads every number member by its own name', () => {
    const numbers = RECORD_COLUMN_MEMBERS.filter((m) => m.type === 'number');
    expect(numbers.filter((m) => COLUMN_DATA_TYPES[m.key] !== m.column).map((m) => m.key)).toEqual([]);
  });

  it.each(Object.entries(COLUMN_DATA_TYPES))('the filter reads %s from column %s', (alias, column) => {
    const value = (row as unknown as Record<string, unknown>)[column] as number;
    expect(filterMember(alias, known)!(row)).toBe(alias === 'RSSI' ? Math.round(value) : value);
  });

  it('reads an alias without a column from the decoded payload', () => {
    expect(filterMember('co2', new Set(['co2']))!(row)).toBe(612);
  });
});

describe('lastDataRowUid', () => {
  it("finds the last row's uid in rows as toDataRowWire writes them, joined with commas", () => {
    const rows = ['41', '9007199254740991', '1234567'].map((uid) => JSON.stringify(toDataRowWire({ ...distinctRow(), uid })));
    expect(lastDataRowUid(rows.join(','))).toBe('1234567');
    expect(lastDataRowUid(rows[0]!)).toBe('41');
    expect(lastDataRowUid('')).toBeNull();
  });
});
