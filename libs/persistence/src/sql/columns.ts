/** Column maps: a table's columns written once, with the record types and SQL lists derived from them. */

/** The value pg reads for each SQL type used here (bigint as text: it may pass 2^53). */
export interface PgValues {
  integer: number;
  smallint: number;
  bigint: string;
  'double precision': number;
  text: string;
  'text[]': string[];
  boolean: boolean;
  jsonb: Record<string, unknown>;
  timestamptz: Date;
  bytea: Buffer;
}
export type SqlType = keyof PgValues;
export type PgValue<T extends SqlType> = PgValues[T];

export const nullable = <T extends SqlType>(type: T) => ({ type, nullable: true as const });
export const required = <T extends SqlType>(type: T) => ({ type, nullable: false as const });

/** A column: its SQL type, and whether it may be NULL. */
export interface ColumnSpec {
  type: SqlType;
  nullable: boolean;
}

/** A row as pg reads it, from a column map. */
export type RowOf<M extends Record<string, ColumnSpec>> = { [K in keyof M]: PgValues[M[K]['type']] | (M[K]['nullable'] extends true ? null : never) };

/** Items joined with commas, wrapped before 120 characters with this indent: generated SQL stays reviewable. */
export function sqlList(items: readonly string[], indent = '              '): string {
  const lines: string[] = [];
  let line = '';
  for (const item of items) {
    if (line && line.length + item.length + 2 > 120 - indent.length) {
      lines.push(`${line},`);
      line = item;
    } else line = line ? `${line}, ${item}` : item;
  }
  return [...lines, line].join(`\n${indent}`);
}
