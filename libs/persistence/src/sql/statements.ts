import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';

/** A statement that runs on hot paths (every request, every uplink): its name is its prepared statement's. */
export interface Statement {
  readonly name: string;
  readonly text: string;
}

export const statement = (name: string, text: string): Statement => ({ name, text });

/**
 * Runs the hot statements straight on the pool, without TypeORM's query runner: on PostgreSQL as
 * named prepared statements, parsed and planned once per connection instead of on every call (most
 * of PostgreSQL's time for a small query, docs/benchmarks.md); on the embedded database unnamed,
 * because its connections share one session, where a name one connection prepared would already
 * exist when the next connection prepares it.
 */
export class Statements {
  private readonly pool: Pool;

  constructor(
    ds: DataSource,
    private readonly named: boolean,
  ) {
    // TypeORM's PostgreSQL driver keeps its pg Pool as `master`.
    this.pool = (ds.driver as unknown as { master: Pool }).master;
  }

  async rows<T>(s: Statement, values: unknown[]): Promise<T[]> {
    const result = await this.pool.query(this.named ? { name: s.name, text: s.text, values } : { text: s.text, values });
    return result.rows as T[];
  }
}
