import type { AlertWire } from '@dts/domain';
import { alertMatches, mergeAlert } from './alert-merge';

const alert = (uid: number, over: Partial<AlertWire> = {}): AlertWire => ({
  uid,
  rule: { uid: 1, name: 'Too warm', kind: 'threshold' },
  devEUI: '0004A30B001C0530',
  state: 'active',
  acknowledged: false,
  message: 'temperature 31 above 30',
  details: {},
  raised_unix: 1_000 + uid,
  cleared_unix: null,
  acknowledged_unix: null,
  mail: null,
  ...over,
});

describe('alertMatches', () => {
  it('reads each state filter', () => {
    const cleared = alert(1, { state: 'cleared', acknowledged: true });
    expect(alertMatches(cleared, { state: 'active' })).toBe(false);
    expect(alertMatches(cleared, { state: 'cleared' })).toBe(true);
    expect(alertMatches(cleared, { state: 'acknowledged' })).toBe(true);
    expect(alertMatches(cleared, { state: 'unacknowledged' })).toBe(false);
    expect(alertMatches(cleared, {})).toBe(true);
  });

  it('reads the device (in any case) and the raised window', () => {
    expect(alertMatches(alert(1), { eui: '0004a30b001c0530' })).toBe(true);
    expect(alertMatches(alert(1), { eui: '0004A30B001C0531' })).toBe(false);
    expect(alertMatches(alert(1), { from: 1_002 })).toBe(false);
    expect(alertMatches(alert(1), { to: 1_000 })).toBe(false);
    expect(alertMatches(alert(1), { from: 1_001, to: 1_001 })).toBe(true);
  });
});

describe('mergeAlert', () => {
  it('puts a new alert first and keeps the pages otherwise', () => {
    const pages = [[alert(5), alert(3)], [alert(2)]];
    expect(mergeAlert(pages, alert(7), {}, false).map((p) => p.map((a) => a.uid))).toEqual([[7, 5, 3], [2]]);
  });

  it('puts an alert between loaded rows by uid', () => {
    expect(mergeAlert([[alert(5), alert(3)], [alert(2)]], alert(4), {}, true).map((p) => p.map((a) => a.uid))).toEqual([[5, 4, 3], [2]]);
  });

  it('leaves an older alert to a page not loaded yet, and appends it when every page is loaded', () => {
    const pages = [[alert(5), alert(3)]];
    expect(mergeAlert(pages, alert(1), {}, true)).toBe(pages);
    expect(mergeAlert(pages, alert(1), {}, false).map((p) => p.map((a) => a.uid))).toEqual([[5, 3, 1]]);
    expect(mergeAlert([], alert(1), {}, false)).toEqual([[alert(1)]]);
  });

  it('replaces an alert in place and drops it from a list it no longer matches', () => {
    const pages = [[alert(5), alert(3)]];
    const cleared = alert(3, { state: 'cleared', cleared_unix: 2_000 });
    expect(mergeAlert(pages, cleared, {}, false)[0]![1]).toBe(cleared);
    expect(mergeAlert(pages, cleared, { state: 'active' }, false).map((p) => p.map((a) => a.uid))).toEqual([[5]]);
  });

  it('returns the same pages for an alert the list does not take', () => {
    const pages = [[alert(5)]];
    expect(mergeAlert(pages, alert(6, { state: 'cleared' }), { state: 'active' }, false)).toBe(pages);
  });
});
