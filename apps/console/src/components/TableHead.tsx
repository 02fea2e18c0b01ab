import type { ReactNode } from 'react';

export interface TableColumn {
  label: ReactNode;
  /** `num` for a column of numbers (right-aligned). */
  className?: string;
}

/**
 * A static table's caption and head row: each column a header cell of its own scope, and, when
 * `actions` names them, a last column for the rows' buttons, its name for screen readers only.
 * The caption is for screen readers too unless `captionShown` (the card's title already says it).
 */
export function TableHead({
  caption,
  columns,
  actions,
  captionShown = false,
}: {
  caption: string;
  columns: readonly (ReactNode | TableColumn)[];
  actions?: string;
  captionShown?: boolean;
}) {
  return (
    <>
      <caption className={captionShown ? undefined : 'sr-only'}>{caption}</caption>
      <thead>
        <tr>
          {columns.map((column, i) => {
            const { label, className } = isColumn(column) ? column : { label: column, className: undefined };
            return (
              <th key={i} scope="col" className={className}>
                {label}
              </th>
            );
          })}
          {actions ? (
            <th scope="col">
              <span className="sr-only">{actions}</span>
            </th>
          ) : null}
        </tr>
      </thead>
    </>
  );
}

function isColumn(column: ReactNode | TableColumn): column is TableColumn {
  return typeof column === 'object' && column !== null && 'label' in column;
}
