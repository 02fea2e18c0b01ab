import { DEFAULT_LIST_STATE, listQuery, readListState, toggleSort, writeListState } from './list-state';

describe('device list state', () => {
  it('round-trips through the address bar', () => {
    const state = { q: 'bike', folder: 'park', typeRef: 3, online: false, sort: '-last_seen' as const };
    expect(readListState(writeListState(state))).toEqual(state);
    expect(writeListState(DEFAULT_LIST_STATE)).toBe('');
    expect(readListState('?sort=drop&type=-1&online=maybe')).toEqual(DEFAULT_LIST_STATE);
  });

  it('asks the list route for a page', () => {
    expect(listQuery({ ...DEFAULT_LIST_STATE, q: ' x ', online: true }, 100, 'c1')).toEqual({ limit: 100, sort: 'label', cursor: 'c1', q: 'x', online: true });
  });

  it('flips the direction of the current column', () => {
    expect(toggleSort('label', 'label')).toBe('-label');
    expect(toggleSort('-label', 'label')).toBe('label');
    expect(toggleSort('label', 'battery')).toBe('battery');
  });
});
