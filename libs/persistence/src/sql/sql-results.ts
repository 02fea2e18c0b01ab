import type { EntityManager } from 'typeorm';

type Queryable = Pick<EntityManager, 'query'>;

/**
 * Rows of an INSERT/UPDATE/DELETE … RETURNING. TypeORM's `query` answers UPDATE and DELETE with
 * `[rows, rowCount]` but other statements with the rows alone; this gives the rows either way.
 */
export async function returningRows<T>(db: Queryable, sql: string, params: unknown[]): Promise<T[]> {
  const result = (await db.query(sql, params)) as unknown;
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') return result[0] as T[];
  return result as T[];
}

/**
 * The one row of a statement that always answers exactly one: an aggregate without GROUP BY, or an
 * INSERT … RETURNING of one row. A missing row is a broken invariant, not a case to handle.
 */
export function onlyRow<T>(rows: readonly T[]): T {
  const [row] = rows;
  if (row === undefined) throw new Error('a statement that answers one row answered none');
  return row;
}

/** The one row of such a statement, run. */
export async function queryOne<T>(db: Queryable, sql: string, params: unknown[] = []): Promise<T> {
  return onlyRow((await db.query(sql, params)) as T[]);
}
