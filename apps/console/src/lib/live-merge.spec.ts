import type { CommandWire, UplinkRecordWire } from '@dts/domain';
import { mergeCommand, mergeCommandPages, mergeUplinks, positionOf } from './live-merge';

const row = (uid: number) => ({ uplink: { uid } }) as UplinkRecordWire;
const command = (uid: number, status: CommandWire['status']) => ({ uid, status }) as CommandWire;

describe('live merging', () => {
  it('keeps uplinks once each, newest first, capped', () => {
    expect(mergeUplinks(undefined, [row(1), row(2)]).map((r) => r.uplink.uid)).toEqual([2, 1]);
    expect(mergeUplinks([row(3), row(1)], [row(2), row(3), row(4)]).map((r) => r.uplink.uid)).toEqual([4, 3, 2, 1]);
    expect(mergeUplinks([row(2), row(1)], [row(3)], 2).map((r) => r.uplink.uid)).toEqual([3, 2]);
  });

  it('moves a command’s status on, or puts a new one first', () => {
    expect(mergeCommand([command(2, 'Created'), command(1, 'Sent')], command(2, 'Scheduled'))).toEqual([command(2, 'Scheduled'), command(1, 'Sent')]);
    expect(mergeCommand([command(1, 'Sent')], command(2, 'Created'))).toEqual([command(2, 'Created'), command(1, 'Sent')]);
  });

  it('never moves a command’s status back (the live Scheduled can beat the POST’s Created)', () => {
    expect(mergeCommand([command(2, 'Scheduled')], command(2, 'Created'))).toEqual([command(2, 'Scheduled')]);
    expect(mergeCommand([command(2, 'Failed')], command(2, 'Sent'))).toEqual([command(2, 'Failed')]);
    expect(mergeCommand([command(2, 'Sent')], command(2, 'Sent'))).toEqual([command(2, 'Sent')]);
  });

  /** Pages as read: rows newest first, and the cursor fixed then. */
  const pages = (...lists: CommandWire[][]) => ({
    pages: lists.map((rows, i) => ({ rows, next: i < lists.length - 1 ? rows.at(-1)?.uid : undefined })),
    pageParams: [],
  });
  const rowsOf = (data: ReturnType<typeof pages> | undefined) => data?.pages.map((p) => p.rows);

  it('merges a command into the page that holds it, one just sent into the first page, nothing before the first read', () => {
    const data = pages([command(4, 'Created'), command(3, 'Sent')], [command(2, 'Scheduled'), command(1, 'Sent')]);
    expect(rowsOf(mergeCommandPages(data, command(2, 'Sent')))).toEqual([data.pages[0]!.rows, [command(2, 'Sent'), command(1, 'Sent')]]);
    expect(rowsOf(mergeCommandPages(data, command(5, 'Created')))).toEqual([[command(5, 'Created'), ...data.pages[0]!.rows], data.pages[1]!.rows]);
    expect(mergeCommandPages(data, command(2, 'Created'))).toEqual(data);
    expect(mergeCommandPages(data, command(5, 'Created'))?.pages.map((p) => p.next)).toEqual([3, undefined]);
    expect(mergeCommandPages(undefined, command(5, 'Created'))).toBeUndefined();
  });

  it('leaves a command of a page not read yet to that page (older than every listed one)', () => {
    const data = pages([command(9, 'Scheduled'), command(8, 'Scheduled')]);
    expect(mergeCommandPages(data, command(3, 'Sent'))).toEqual(data);
    expect(mergeCommandPages(data, command(3, 'Cancelled'), 'waiting')).toEqual(data);
    expect(rowsOf(mergeCommandPages(pages([]), command(3, 'Created'), 'waiting'))).toEqual([[command(3, 'Created')]]);
  });

  it('takes a command that left out of a list of waiting ones, keeping its pages’ cursors, and never adds one that has left', () => {
    const data = pages([command(4, 'Created'), command(3, 'Scheduled')], [command(2, 'Scheduled')]);
    const left = mergeCommandPages(data, command(3, 'Sent'), 'waiting');
    expect(rowsOf(left)).toEqual([[command(4, 'Created')], [command(2, 'Scheduled')]]);
    expect(left?.pages[0]!.next).toBe(3);
    expect(rowsOf(mergeCommandPages(data, command(2, 'Cancelled'), 'waiting'))).toEqual([data.pages[0]!.rows, []]);
    expect(mergeCommandPages(data, command(5, 'Failed'), 'waiting')).toEqual(data);
    expect(rowsOf(mergeCommandPages(data, command(5, 'Created'), 'waiting'))?.[0]).toEqual([command(5, 'Created'), ...data.pages[0]!.rows]);
    // A late Created of one already Scheduled keeps it, and it stays.
    expect(rowsOf(mergeCommandPages(data, command(3, 'Created'), 'waiting'))).toEqual(rowsOf(data));
    expect(rowsOf(mergeCommandPages(data, command(3, 'Sent'), 'all'))?.[0]).toEqual([command(4, 'Created'), command(3, 'Sent')]);
  });

  it('reads a position from the decoded payload, else the network', () => {
    expect(positionOf({ LAT: 52.1, LON: 4.8, geoloc_LAT: 1, geoloc_LON: 2 })).toEqual([52.1, 4.8]);
    expect(positionOf({ LAT: null, LON: null, geoloc_LAT: 1, geoloc_LON: 2 })).toEqual([1, 2]);
    expect(positionOf({ LAT: null, LON: 4, geoloc_LAT: null, geoloc_LON: null })).toBeNull();
  });
});
