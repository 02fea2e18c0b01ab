import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type QueryRunner } from 'typeorm';
import { partitionName, partitionsToAdd, type PartitionInterval } from './partition-bounds';
import { TIMESERIES_SETTINGS, type TimeseriesSettings } from './timeseries-settings';

/**
 * The tables partitioned by time (migrations 1795830000000 and 1795840000000). `uplinks` and
 * `uplink_gateways` share their bounds and are dropped together (a gateway row describes an
 * uplink); the hourly rollup and the audit log have retentions of their own.
 */
export const TIME_PARTITIONED = ['uplinks', 'uplink_gateways', 'uplink_rollups_hourly', 'audit_events'] as const;
export type TimePartitionedTable = (typeof TIME_PARTITIONED)[number];

export interface TimePartition {
  table: TimePartitionedTable;
  name: string;
  /** null: from the beginning of time (the `_history` partition the migration made). */
  from: Date | null;
  to: Date;
}

/** How long a partition's DDL may wait for a lock before it gives up and tries at the next run. */
const DDL_LOCK_TIMEOUT_MS = 1_000;
/** Orders concurrent creators of partitions on PostgreSQL (the key, with the table's position). */
const PARTITION_LOCK = 7_203;

/** A missing partition: PostgreSQL refuses the row (check_violation) rather than inventing one. */
export function isMissingPartition(error: unknown): boolean {
  const e = error as { code?: string; message?: string; driverError?: { code?: string } };
  return (e?.code ?? e?.driverError?.code) === '23514' && /no partition of relation/.test(e?.message ?? '');
}

/**
 * Creates time partitions ahead of the data and drops those a retention has passed. Creating one
 * is `CREATE TABLE … (LIKE parent)` and `ATTACH PARTITION`, which takes only a SHARE UPDATE
 * EXCLUSIVE lock on the parent: inserts and reads go on (CREATE TABLE … PARTITION OF would take
 * an ACCESS EXCLUSIVE lock and queue every insert behind the longest running read). Dropping one
 * is `DETACH PARTITION … CONCURRENTLY`, then `DROP TABLE` of a table nothing reads any more.
 */
@Injectable()
export class TimePartitionsRepository {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(TIMESERIES_SETTINGS) private readonly settings: TimeseriesSettings,
  ) {}

  /** The partitions of `table`, oldest first, from the catalog (a detach left half done included). */
  async list(table: TimePartitionedTable): Promise<(TimePartition & { detachPending: boolean })[]> {
    // The bounds as the catalog prints them (MINVALUE has no quotes, so it reads as null).
    const rows: { name: string; from_s: number | null; to_s: number; detach_pending: boolean }[] = await this.ds.query(
      `SELECT c.relname AS name,
              extract(epoch FROM (regexp_match(pg_get_expr(c.relpartbound, c.oid), $$FROM \\('([^']*)'\\)$$))[1]::timestamptz)::float8 AS from_s,
              extract(epoch FROM (regexp_match(pg_get_expr(c.relpartbound, c.oid), $$TO \\('([^']*)'\\)$$))[1]::timestamptz)::float8 AS to_s,
              i.inhdetachpending AS detach_pending
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       WHERE i.inhparent = $1::regclass`,
      [table],
    );
    return rows
      .map((r) => ({
        table,
        name: r.name,
        from: r.from_s === null ? null : new Date(Number(r.from_s) * 1000),
        to: new Date(Number(r.to_s) * 1000),
        detachPending: r.detach_pending,
      }))
      .sort((a, b) => a.to.getTime() - b.to.getTime());
  }

  /**
   * Makes sure every partitioned table has partitions up to and including `until` (each table's new
   * ones after its last): the worker keeps `PARTITIONS_AHEAD` intervals ready, ingestion calls it
   * when a row found none. Safe to run from several processes at once. Returns the names created.
   */
  async ensure(until: Date, interval: PartitionInterval = this.settings.partitionInterval): Promise<string[]> {
    const created: string[] = [];
    for (const [position, table] of TIME_PARTITIONED.entries()) {
      const last = (await this.list(table)).at(-1);
      if (!last) throw new Error(`${table} has no partition: its migration makes the first`);
      for (const range of partitionsToAdd(last.to, until, interval)) {
        if (await this.add(table, position, range.from, range.to)) created.push(partitionName(table, range.from));
      }
    }
    return created;
  }

  private async add(table: TimePartitionedTable, position: number, from: Date, to: Date): Promise<boolean> {
    const name = partitionName(table, from);
    return this.withRunner(async (runner) => {
      await runner.startTransaction();
      try {
        // PostgreSQL: one creator at a time, the others then find it made. (PGlite is one session,
        // where the lock excludes nothing; the catalog check below catches a repeat there.)
        await runner.query('SELECT pg_advisory_xact_lock($1, $2)', [PARTITION_LOCK, position]);
        await runner.query(`SET LOCAL lock_timeout = ${DDL_LOCK_TIMEOUT_MS}`);
        const [covered] = await runner.query(
          `SELECT 1 FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
           WHERE i.inhparent = $1::regclass AND c.relname = $2`,
          [table, name],
        );
        if (covered) {
          await runner.commitTransaction();
          return false;
        }
        await runner.query(`CREATE TABLE ${name} (LIKE ${table} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
        await runner.query(`ALTER TABLE ${table} ATTACH PARTITION ${name} FOR VALUES FROM ('${from.toISOString()}') TO ('${to.toISOString()}')`);
        await runner.commitTransaction();
        return true;
      } catch (error) {
        await runner.rollbackTransaction().catch(() => undefined);
        throw error;
      }
    });
  }

  /**
   * Drops the partitions of `table` that end at or before `cutoff` (whole partitions only: a
   * partition that also holds newer rows stays, and the rows are removed in batches instead).
   * Returns what was dropped. A detach interrupted earlier is finished first.
   */
  async dropEndingBy(table: TimePartitionedTable, cutoff: Date): Promise<TimePartition[]> {
    const dropped: TimePartition[] = [];
    const partitions = await this.list(table);
    // The newest partition is never dropped: the table always keeps one to insert into.
    for (const p of partitions.slice(0, -1)) {
      if (p.to.getTime() > cutoff.getTime()) break;
      await this.withRunner(async (runner) => {
        await runner.query(`SET lock_timeout = ${DDL_LOCK_TIMEOUT_MS}`);
        // CONCURRENTLY: waits for the readers of the partition, without stopping anyone else's
        // reads or inserts meanwhile. It cannot run inside a transaction block.
        if (p.detachPending) await runner.query(`ALTER TABLE ${table} DETACH PARTITION ${p.name} FINALIZE`);
        else await runner.query(`ALTER TABLE ${table} DETACH PARTITION ${p.name} CONCURRENTLY`);
        await runner.query(`DROP TABLE ${p.name}`);
        await runner.query('RESET lock_timeout');
      });
      dropped.push(p);
    }
    return dropped;
  }

  private async withRunner<T>(work: (runner: QueryRunner) => Promise<T>): Promise<T> {
    const runner = this.ds.createQueryRunner();
    await runner.connect();
    try {
      return await work(runner);
    } finally {
      await runner.release();
    }
  }
}
