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
