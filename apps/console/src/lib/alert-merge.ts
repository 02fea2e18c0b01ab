import type { AlertQuery, AlertWire } from '@dts/domain';

/** One page of an alert list: newest first, `next` the uid the following page is read before. */
export interface AlertPage {
  rows: AlertWire[];
  next: number | undefined;
}

/** Whether a list made with `q` holds the alert as it now is (the filters of GET /user/alert, §19). */
export function alertMatches(alert: AlertWire, q: Omit<AlertQuery, 'before'>): boolean {
  if (q.eui !== undefined && q.eui.toUpperCase() !== alert.devEUI.toUpperCase()) return false;
  if (q.from !== undefined && alert.raised_unix < q.from) return false;
  if (q.to !== undefined && alert.raised_unix > q.to) return false;
  switch (q.state) {
    case 'active':
      return alert.state === 'active';
    case 'cleared':
      return alert.state === 'cleared';
    case 'acknowledged':
      return alert.acknowledged;
    case 'unacknowledged':
      return !alert.acknowledged;
    case undefined:
      return true;
  }
}

/**
 * An alert raised, cleared or acknowledged, into the loaded pages of one list: replaced where it
 * is, gone when it no longer matches the filter (an active list loses a cleared alert), and a new
 * one put in its place by uid (newest first) — unless it belongs to a page not loaded yet. The same
 * pages come back when nothing changed, so React Query keeps its cache as it was.
 */
export function mergeAlert(pages: AlertWire[][], alert: AlertWire, q: Omit<AlertQuery, 'before'>, more: boolean): AlertWire[][] {
  const matches = alertMatches(alert, q);
  const at = pages.findIndex((rows) => rows.some((r) => r.uid === alert.uid));
  if (at >= 0) {
    const rows = pages[at]!;
    const next = matches ? rows.map((r) => (r.uid === alert.uid ? alert : r)) : rows.filter((r) => r.uid !== alert.uid);
    return pages.map((p, i) => (i === at ? next : p));
  }
  if (!matches) return pages;
  for (let i = 0; i < pages.length; i++) {
    const rows = pages[i]!;
    const before = rows.findIndex((r) => r.uid < alert.uid);
    if (before >= 0) return pages.map((p, j) => (j === i ? [...rows.slice(0, before), alert, ...rows.slice(before)] : p));
  }
  // Older than every loaded row: it is on a page still to come, unless the list has no more.
  if (more) return pages;
  if (pages.length === 0) return [[alert]];
  return pages.map((p, j) => (j === pages.length - 1 ? [...p, alert] : p));
}
