import { COMMAND_STATUS_RANK, type CommandWire, isWaiting, type UplinkRecordWire } from '@dts/domain';

/** Rows the live view of a device keeps (newest first). */
export const LIVE_ROWS = 200;

/**
 * Adds uplinks to a newest-first list: once each (a reconnect may replay what was seen), ordered
 * by uid, at most `cap`.
 */
export function mergeUplinks(list: readonly UplinkRecordWire[] | undefined, incoming: readonly UplinkRecordWire[], cap = LIVE_ROWS): UplinkRecordWire[] {
  const seen = new Set((list ?? []).map((r) => r.uplink.uid));
  const fresh = incoming.filter((r) => !seen.has(r.uplink.uid));
  if (fresh.length === 0) return list ? [...list] : [];
  return [...fresh, ...(list ?? [])].sort((a, b) => b.uplink.uid - a.uplink.uid).slice(0, cap);
}

/**
 * A command's new status replaces its row; a command not listed yet goes first (the list is newest
 * first). A status never moves back: the live feed's Scheduled can arrive before the answer to the
 * POST that created the command, and that answer's Created must not hide it.
 */
export function mergeCommand(list: readonly CommandWire[] | undefined, command: CommandWire): CommandWire[] {
  const rows = [...(list ?? [])];
  const at = rows.findIndex((c) => c.uid === command.uid);
  if (at < 0) rows.unshift(command);
  else if (COMMAND_STATUS_RANK[command.status] >= COMMAND_STATUS_RANK[rows[at]!.status]) rows[at] = command;
  return rows;
}

/** Which of a device's commands a list shows: all, or those waiting to leave (as a network's queue shows them). */
export type CommandShow = 'all' | 'waiting';
export const isShown = (show: CommandShow, command: CommandWire) => show === 'all' || isWaiting(command.status);

/** A page of a device's commands as read; `next` (the cursor of the page after it) is fixed then, as live changes may take rows out. */
export interface CommandPage {
  rows: CommandWire[];
  next: number | undefined;
}

/**
 * mergeCommand on a list read in pages (newest first): into the page that holds the command. One
 * not listed goes first if it is newer than every listed one (just sent); an older one is on a page
 * not read yet, which brings it when read. A command the list no longer shows (it left, in a list
 * of waiting ones) goes. Nothing before the first page has been read: there is nothing to merge into.
 */
export function mergeCommandPages<D extends { pages: readonly CommandPage[] }>(
  data: D | undefined,
  command: CommandWire,
  show: CommandShow = 'all',
): D | undefined {
  if (!data || data.pages.length === 0) return data;
  let holder = data.pages.findIndex((page) => page.rows.some((c) => c.uid === command.uid));
  if (holder < 0) {
    const newest = data.pages[0]!.rows[0];
    if (!isShown(show, command) || (newest && command.uid < newest.uid)) return data;
    holder = 0;
  }
  return {
    ...data,
    pages: data.pages.map((page, i) =>
      i === holder ? { ...page, rows: mergeCommand(page.rows, command).filter((c) => c.uid !== command.uid || isShown(show, c)) } : page,
    ),
  };
}

/** A position of a track: [lat, lon] from the decoded position, else the network's. */
export function positionOf(row: Pick<UplinkRecordWire, 'LAT' | 'LON' | 'geoloc_LAT' | 'geoloc_LON'>): [number, number] | null {
  if (row.LAT !== null && row.LON !== null) return [row.LAT, row.LON];
  if (row.geoloc_LAT !== null && row.geoloc_LON !== null) return [row.geoloc_LAT, row.geoloc_LON];
  return null;
}
