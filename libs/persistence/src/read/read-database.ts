import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import { loopDeadline, type LoopDeadline } from '@dts/platform';
import { Pool, type PoolClient, type PoolConfig, type QueryResult } from 'pg';

/**
 * A user's read ran past READ_STATEMENT_TIMEOUT_MS: answered 503 QUERY_TIMEOUT (docs/api.md §1),
 * never left running.
 */
export class QueryTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`the read ran longer than ${timeoutMs} ms`);
    this.name = 'QueryTimeoutError';
  }
}

export interface ReadDatabaseOptions {
  primaryUrl: string;
  /** A streaming replica (READ_DATABASE_URL); null reads the primary. */
  replicaUrl: string | null;
  poolSize: number;
  statementTimeoutMs: number;
  /** The embedded database: one backend that cannot cancel a statement (see `query`). */
  embedded: boolean;
}

/** How long the replica is left alone after it failed to answer, before it is tried again. */
export const REPLICA_RETRY_MS = 5_000;
/** A replica that does not accept a connection within this is taken as down. */
const REPLICA_CONNECT_TIMEOUT_MS = 1_000;

const QUERY_CANCELED = '57014';
/** Errors that say the server (not the statement) is gone: the read is tried on the primary. */
const SERVER_GONE = new Set([
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
]);

/**
 * Where reads that may be a moment stale go: the history, exports, series and searches a user
 * asks for (docs/api.md §5, "Reads and their staleness"). Every such statement runs under
 * READ_STATEMENT_TIMEOUT_MS, so a user's heavy read cannot hold a connection (or, on PostgreSQL, a
 * backend) beyond it; past it the caller gets QueryTimeoutError and the connection is clean again.
 *
 * With a replica, reads go there; when it refuses or drops connections they go to the primary at
 * once (the read that met the failure included) and the replica is tried again REPLICA_RETRY_MS
 * later. Writes, and reads that must see what the same request wrote, never come here.
 */
export class ReadDatabase implements OnApplicationShutdown {
  private readonly logger = new Logger(ReadDatabase.name);
  private readonly primary: Pool;
  private readonly replica: Pool | null;
  private replicaDownUntil = 0;

  constructor(private readonly options: ReadDatabaseOptions) {
    this.primary = new Pool(this.poolConfig(options.primaryUrl, false));
    this.replica = options.replicaUrl ? new Pool(this.poolConfig(options.replicaUrl, true)) : null;
    // An idle client that breaks is reported here; unhandled, it would end the process.
    this.primary.on('error', () => undefined);
    this.replica?.on('error', () => undefined);
  }

  private poolConfig(url: string, replica: boolean): PoolConfig {
    return {
      connectionString: url,
      max: this.options.poolSize,
      idleTimeoutMillis: 30_000,
      connectionTimeoutMillis: replica ? REPLICA_CONNECT_TIMEOUT_MS : 5_000,
      // PostgreSQL ends the statement itself; the planner's JIT compiles a statement whose row
      // estimate is large (a long range) for longer than the read takes (docs/benchmarks.md, figure 7).
      statement_timeout: this.options.statementTimeoutMs,
      options: '-c jit=off',
    };
  }

  /** Whether reads go to a replica now (false: there is none, or it failed a moment ago). */
  get onReplica(): boolean {
    return this.replica !== null && Date.now() >= this.replicaDownUntil;
  }

  /**
   * `name`: a statement read again and again with other values (a page of a history), prepared
   * under that name once per connection on PostgreSQL, so that it is not parsed and planned on
   * every call; on the embedded database, whose connections share one session, it goes unnamed
   * (Statements, sql/statements.ts). One name, one text.
   */
  async query<T>(sql: string, params: readonly unknown[] = [], name?: string): Promise<T[]> {
    const statement = name !== undefined && !this.options.embedded ? name : undefined;
    if (this.replica && this.onReplica) {
      try {
        return await this.run<T>(this.replica, sql, params, statement);
      } catch (error) {
        if (!serverGone(error)) throw error;
        this.replicaDownUntil = Date.now() + REPLICA_RETRY_MS;
        this.logger.warn(`the read replica failed (${describe(error)}): reads go to the primary for ${REPLICA_RETRY_MS / 1000} s`);
      }
    }
    return this.run<T>(this.primary, sql, params, statement);
  }

  /**
   * The client stops waiting READ_STATEMENT_TIMEOUT_MS after it asked (and a second more on
   * PostgreSQL, which cancels the statement itself first): the embedded database (PGlite) cannot
   * interrupt a statement, so there this is the limit, and the statement's time is the embedded
   * thread's only. The wait is a loop deadline (loop-deadline.ts), not pg's query_timeout: an event
   * loop that stood still must not turn an answer waiting to be read into a timeout.
   */
  private async run<T>(pool: Pool, sql: string, params: readonly unknown[], name: string | undefined): Promise<T[]> {
    const client: PoolClient = await pool.connect();
    const timeoutMs = this.options.statementTimeoutMs;
    let broken: Error | undefined;
    let deadline: LoopDeadline | undefined;
    const answer = name === undefined ? client.query(sql, params as unknown[]) : client.query({ name, text: sql, values: params as unknown[] });
    // Settled either way; what the caller sees is the race below.
    answer.catch(() => undefined);
    try {
      const waited = new Promise<never>((_, reject) => {
        deadline = loopDeadline(timeoutMs + (this.options.embedded ? 0 : 1_000), () => reject(new QueryTimeoutError(timeoutMs)));
      });
      const result: QueryResult = await Promise.race([answer, waited]);
      return result.rows as T[];
    } catch (error) {
      if (error instanceof QueryTimeoutError) {
        // The statement may still be running for this connection: it is closed, not given back.
        broken = error;
        throw error;
      }
      if ((error as { code?: string }).code === QUERY_CANCELED) throw new QueryTimeoutError(timeoutMs);
      if (serverGone(error)) broken = error as Error;
      throw error;
    } finally {
      deadline?.clear();
      client.release(broken);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.primary.end(), this.replica?.end()]);
  }
}

function serverGone(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return (e?.code !== undefined && SERVER_GONE.has(e.code)) || /Connection terminated|timeout exceeded when trying to connect/.test(e?.message ?? '');
}

function describe(error: unknown): string {
  const e = error as { code?: string; message?: string };
  return e?.code ? `${e.code}: ${e.message ?? ''}` : (e?.message ?? String(error));
}
