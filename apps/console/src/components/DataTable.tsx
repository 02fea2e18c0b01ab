import { useVirtualizer } from '@tanstack/react-virtual';
import { ArrowDown, ArrowUp } from 'lucide-react';
import { type ReactNode, useEffect, useRef } from 'react';

export interface Column<T> {
  key: string;
  header: string;
  render: (row: T) => ReactNode;
  /** The service's sort key of this column; absent: not sortable. */
  sortKey?: string;
  className?: string;
}

interface Props<T> {
  caption: string;
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  /** `key` or `-key`, as the list route takes it. */
  sort?: string;
  onSort?: (key: string) => void;
  /** Called when the last rows come into view (load the next page). */
  onEndReached?: () => void;
  /** Height of one row in pixels (rows are virtualised: only those in view are in the page). */
  rowHeight?: number;
  /** Rows in the whole list when known (for screen readers: aria-rowcount). */
  total?: number;
  maxHeight?: string;
}

/**
 * A table of any length: real table semantics (caption, header cells with aria-sort, sort buttons
 * reachable by keyboard), with only the rows in view rendered between two spacer rows.
 */
export function DataTable<T>({ caption, columns, rows, rowKey, sort, onSort, onEndReached, rowHeight = 44, total, maxHeight = '70vh' }: Props<T>) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => rowHeight, overscan: 12 });
  const items = virtual.getVirtualItems();
  const last = items[items.length - 1];
  useEffect(() => {
    if (onEndReached && last && last.index >= rows.length - 20) onEndReached();
  }, [last, rows.length, onEndReached]);
  const before = items[0]?.start ?? 0;
  const after = last ? virtual.getTotalSize() - last.end : 0;
  const direction = (key?: string) => (!key || !sort ? undefined : sort === key ? 'ascending' : sort === `-${key}` ? 'descending' : undefined);

  return (
    <div className="table-scroll" ref={scroller} style={{ maxHeight }} tabIndex={0} role="region" aria-label={caption}>
      <table className="data-table" aria-rowcount={total !== undefined ? total + 1 : undefined}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => {
              const dir = direction(c.sortKey);
              return (
                <th key={c.key} scope="col" aria-sort={c.sortKey ? (dir ?? 'none') : undefined} className={c.className}>
                  {c.sortKey && onSort ? (
                    <button type="button" className="sort-button" onClick={() => onSort(c.sortKey!)}>
                      {c.header}
                      {dir === 'ascending' ? <ArrowUp aria-hidden size={14} /> : dir === 'descending' ? <ArrowDown aria-hidden size={14} /> : null}
                    </button>
                  ) : (
                    c.header
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {before > 0 ? (
            <tr aria-hidden style={{ height: before }}>
              <td colSpan={columns.length} />
            </tr>
          ) : null}
          {items.map((item) => {
            const row = rows[item.index];
            // The virtualiser counts rows.length items: an index past the end is a stale render.
            if (row === undefined) return null;
            return (
              <tr key={rowKey(row)} style={{ height: rowHeight }} aria-rowindex={item.index + 2}>
                {columns.map((c) => (
                  <td key={c.key} className={c.className}>
                    {c.render(row)}
                  </td>
                ))}
              </tr>
            );
          })}
          {after > 0 ? (
            <tr aria-hidden style={{ height: after }}>
              <td colSpan={columns.length} />
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}
