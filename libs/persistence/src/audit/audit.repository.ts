import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TIMESERIES_SETTINGS, type TimeseriesSettings } from '../timeseries/timeseries-settings';
import { isMissingPartition, type TimePartition, TimePartitionsRepository } from '../timeseries/time-partitions.repository';

/** One call as the audit log keeps it (the wire's AuditEventWire is mapped from the row). */
export interface AuditRecord {
  at: Date;
  accountId: number | null;
  /** The organisation the call acted in; null: the caller's own account. */
  organisationId: number | null;
  username: string | null;
  tokenUid: number | null;
  via: 'session' | 'token' | null;
  action: string;
  target: Record<string, string>;
  status: number;
  ip: string | null;
  requestId: string | null;
}

export interface AuditRow {
  id: string;
  at: Date;
  account_id: number | null;
  organisation_id: number | null;
  username: string | null;
  token_uid: number | null;
  via: 'session' | 'token' | null;
  action: string;
  target: Record<string, string>;
  status: number;
  ip: string | null;
  request_id: string | null;
}

/** What a read narrows by; every member optional. */
export interface AuditFilter {
  accountId?: number;
  organisationId?: number;
  username?: string;
  /** Text the action contains, any case. */
  action?: string;
  result?: 'success' | 'failure';
  from?: Date;
  to?: Date;
}

/** Where a page ended: the last row's time (PostgreSQL's text of it, microseconds kept) and id. */
export interface AuditKey {
  at: string;
  id: string;
}

/** Rows per batch of a whole read (the CSV export): memory holds one batch whatever the log's size. */
const EXPORT_BATCH = 2_000;

const COLUMNS = `id::text AS id, at, at::text AS at_key, account_id, organisation_id, username, token_uid, via, action, target, status, ip, request_id`;

/**
 * The audit log: appended in batches, read newest first in keyset pages, and whole partitions
 * dropped past the retention (never a row edited or deleted otherwise).
 */
@Injectable()
export class AuditRepository {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly partitions: TimePartitionsRepository,
    @Inject(TIMESERIES_SETTINGS) private readonly settings: TimeseriesSettings,
  ) {}

  /** One statement for the whole batch. */
  async append(records: readonly AuditRecord[]): Promise<void> {
    if (records.length === 0) return;
    const rows = records.map((r) => ({
      at: r.at.toISOString(),
      account_id: r.accountId,
      organisation_id: r.organisationId,
      username: r.username,
      token_uid: r.tokenUid,
      via: r.via,
      action: r.action,
      target: r.target,
      status: r.status,
      ip: r.ip,
      request_id: r.requestId,
    }));
    const insert = () =>
      this.ds.query(
        `INSERT INTO audit_events (at, account_id, organisation_id, username, token_uid, via, action, target, status, ip, request_id)
         SELECT at, account_id, organisation_id, username, token_uid, via, action, coalesce(target, '{}'), status, ip, request_id
         FROM jsonb_to_recordset($1::jsonb) AS x(at timestamptz, account_id integer, organisation_id integer, username text, token_uid integer, via text,
                                                  action text, target jsonb, status smallint, ip text, request_id text)`,
        [JSON.stringify(rows)],
      );
    try {
      await insert();
    } catch (error) {
      // A time past the partitions made ahead (the worker down for a while): made now, then written.
      if (!isMissingPartition(error)) throw error;
      await this.partitions.ensure(new Date(Math.max(...records.map((r) => r.at.getTime()))));
      await insert();
    }
  }

  /** Up to `limit` records, newest first, after `after` (a previous page's last). */
  async page(filter: AuditFilter, limit: number, after: AuditKey | null): Promise<(AuditRow & { at_key: string })[]> {
    const { where, params } = whereOf(filter, after);
    params.push(limit);
    return this.ds.query(`SELECT ${COLUMNS} FROM audit_events WHERE ${where} ORDER BY at DESC, id DESC LIMIT $${params.length}`, params);
  }

  /** Every record that matches, newest first, in keyset batches. */
  async *all(filter: AuditFilter): AsyncGenerator<AuditRow[]> {
    let after: AuditKey | null = null;
    for (;;) {
      const batch = await this.page(filter, EXPORT_BATCH, after);
      if (batch.length > 0) yield batch;
      if (batch.length < EXPORT_BATCH) return;
      const last = batch.at(-1)!;
      after = { at: last.at_key, id: last.id };
    }
  }

  /** Drops the partitions whose records are all past AUDIT_RETENTION_DAYS (whole months: a record stays at least that long). */
  dropExpired(now: Date): Promise<TimePartition[]> {
    const cutoff = new Date(now.getTime() - this.settings.auditRetentionDays * 86_400_000);
    return this.partitions.dropEndingBy('audit_events', cutoff);
  }
}

function whereOf(filter: AuditFilter, after: AuditKey | null): { where: string; params: unknown[] } {
  const clauses: string[] = ['true'];
  const params: unknown[] = [];
  const add = (sql: (n: string) => string, value: unknown) => {
    params.push(value);
    clauses.push(sql(`$${params.length}`));
  };
  if (filter.accountId !== undefined) add((n) => `account_id = ${n}`, filter.accountId);
  if (filter.organisationId !== undefined) add((n) => `organisation_id = ${n}`, filter.organisationId);
  if (filter.username !== undefined) add((n) => `lower(username) = lower(${n})`, filter.username);
  if (filter.action !== undefined) add((n) => `strpos(lower(action), lower(${n})) > 0`, filter.action);
  if (filter.result === 'success') clauses.push('status < 400');
  if (filter.result === 'failure') clauses.push('status >= 400');
  if (filter.from !== undefined) add((n) => `at >= ${n}`, filter.from.toISOString());
  if (filter.to !== undefined) add((n) => `at < ${n}`, filter.to.toISOString());
  if (after) {
    params.push(after.at, after.id);
    clauses.push(`(at, id) < ($${params.length - 1}::timestamptz, $${params.length}::bigint)`);
  }
  return { where: clauses.join(' AND '), params };
}
