import { DEVICE_SORT_KEYS, type DeviceListQuery, type DeviceSort, type DeviceSortKey } from '@dts/domain';

/** The device list's state as it lives in the address bar, so a view can be bookmarked and shared. */
export interface ListState {
  q: string;
  folder: string;
  typeRef: number | null;
  online: boolean | null;
  sort: DeviceSort;
}

export const DEFAULT_LIST_STATE: ListState = { q: '', folder: '', typeRef: null, online: null, sort: 'label' };

const SORTS = new Set<string>(DEVICE_SORT_KEYS.flatMap((k) => [k, `-${k}`]));

export function readListState(search: string): ListState {
  const p = new URLSearchParams(search);
  const type = Number(p.get('type'));
  const online = p.get('online');
  const sort = p.get('sort') ?? '';
  return {
    q: p.get('q') ?? '',
    folder: p.get('folder') ?? '',
    typeRef: Number.isInteger(type) && type > 0 ? type : null,
    online: online === 'true' ? true : online === 'false' ? false : null,
    sort: SORTS.has(sort) ? (sort as DeviceSort) : DEFAULT_LIST_STATE.sort,
  };
}

export function writeListState(state: ListState): string {
  const p = new URLSearchParams();
  if (state.q) p.set('q', state.q);
  if (state.folder) p.set('folder', state.folder);
  if (state.typeRef !== null) p.set('type', String(state.typeRef));
  if (state.online !== null) p.set('online', String(state.online));
  if (state.sort !== DEFAULT_LIST_STATE.sort) p.set('sort', state.sort);
  const text = p.toString();
  return text ? `?${text}` : '';
}

/** The list route's query for a page of this state. */
export function listQuery(state: ListState, limit: number, cursor?: string): DeviceListQuery {
  return {
    limit,
    sort: state.sort,
    ...(cursor ? { cursor } : {}),
    ...(state.q.trim() ? { q: state.q.trim() } : {}),
    ...(state.folder ? { folder: state.folder } : {}),
    ...(state.typeRef !== null ? { type_ref: state.typeRef } : {}),
    ...(state.online !== null ? { online: state.online } : {}),
  };
}

/** Clicking a column: sort by it ascending, or flip its direction when it is the current one. */
export function toggleSort(current: DeviceSort, key: DeviceSortKey): DeviceSort {
  if (current === key) return `-${key}`;
  return key;
}
