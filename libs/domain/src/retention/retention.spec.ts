import {
  accountRetentionDays,
  deviceRetentionAllowed,
  effectiveRetentionDays,
  historyRetentionHeaders,
  RAW_HISTORY_FROM_HEADER,
  readHistoryRetention,
  RETENTION_DAYS_HEADER,
} from './retention';

describe('retention rules', () => {
  it('an account’s own value replaces the platform default; null on both keeps', () => {
    expect(accountRetentionDays(null, null)).toBeNull();
    expect(accountRetentionDays(null, 90)).toBe(90);
    expect(accountRetentionDays(400, 90)).toBe(400);
    expect(accountRetentionDays(30, null)).toBe(30);
  });

  it('a device’s own value counts only where it is shorter than its account’s in force', () => {
    // [device, account in force, effective]: the shortest limit that is set, as SQL's least().
    const cases: [number | null, number | null, number | null][] = [
      [null, null, null],
      [10, null, 10],
      [null, 30, 30],
      [10, 30, 10],
      [30, 30, 30],
      [60, 30, 30],
    ];
    for (const [device, account, effective] of cases)
      expect({ device, account, effective: effectiveRetentionDays(device, account) }).toEqual({ device, account, effective });
  });

  it('an owner may shorten the account’s retention or clear the device’s own, never lengthen it', () => {
    expect(deviceRetentionAllowed(null, 30)).toBe(true);
    expect(deviceRetentionAllowed(29, 30)).toBe(true);
    expect(deviceRetentionAllowed(30, 30)).toBe(true);
    expect(deviceRetentionAllowed(31, 30)).toBe(false);
    expect(deviceRetentionAllowed(36_500, null)).toBe(true);
  });

  it('history headers: days and the UTC midnight raw history begins at, or unlimited alone; read back the same', () => {
    const limited = { retention_days: 10, raw_history_from_unix: 1_795_219_200 };
    expect(historyRetentionHeaders(limited)).toEqual({ [RETENTION_DAYS_HEADER]: '10', [RAW_HISTORY_FROM_HEADER]: '1795219200' });
    expect(historyRetentionHeaders({ retention_days: null, raw_history_from_unix: null })).toEqual({ [RETENTION_DAYS_HEADER]: 'unlimited' });
    const read = (headers: Record<string, string>) => readHistoryRetention((name) => headers[name] ?? null);
    expect(read(historyRetentionHeaders(limited))).toEqual(limited);
    expect(read({ [RETENTION_DAYS_HEADER]: 'unlimited' })).toEqual({ retention_days: null, raw_history_from_unix: null });
    // Not ours, or saying two things at once: unknown, not guessed.
    expect(read({})).toBeNull();
    expect(read({ [RETENTION_DAYS_HEADER]: '10' })).toBeNull();
    expect(read({ [RETENTION_DAYS_HEADER]: '-1', [RAW_HISTORY_FROM_HEADER]: '5' })).toBeNull();
    expect(read({ [RETENTION_DAYS_HEADER]: 'unlimited', [RAW_HISTORY_FROM_HEADER]: '5' })).toBeNull();
  });
});
