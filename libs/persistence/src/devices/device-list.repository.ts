import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ReadDatabase } from '../read/read-database';
import { META_COLUMNS, META_FROM } from './device-meta-columns';
import { ACCESSIBLE } from './device-sql';
import { onlyRow, queryOne } from '../sql/sql-results';
import type { DeviceMetaRow } from './devices.repository';

export type DeviceListSortKey = 'label' | 'eui' | 'type' | 'folder' | 'last_seen' | 'battery' | 'signal' | 'firmware';

/** Each sort key's expression and how a cursor's value is cast back. The list's columns in one place. */
const SORT: Record<DeviceListSortKey, { sql: string; cast: string }> = {
  label: { sql: 'lower(d.label)', cast: 'text' },
  eui: { sql: 'd.eui', cast: 'text' },
  type: { sql: 'lower(dt.type_name)', cast: 'text' },
  folder: { sql: 'lower(d.folder)', cast: 'text' },
  last_seen: { sql: 'd.ts_activity_last', cast: 'timestamptz' },
  battery: { sql: 'd.battery_percent', cast: 'float8' },
  signal: { sql: 'd.signal_dbm', cast: 'float8' },
  firmware: { sql: 'lower(d.firmware_version)', cast: 'text' },
};

export interface DeviceListFilter {
  q: string | null;
  folder: string | null;
  typeRef: number | null;
  online: boolean | null;
  onlineSeconds: number;
}

export interface DeviceListPage {
  rows: DeviceMetaRow[];
  total: number;
  /** Where the next page starts: the last row's sort value and EUI; null on the last page. */
  next: { value: string | number | null; eui: string } | null;
}

export interface DeviceListRequest extends DeviceListFilter {
  sort: DeviceListSortKey;
  descending: boolean;
  limit: number | null;
  after: { value: string | number | null; eui: string } | null;
}

export interface AccountOverviewRow {
  total: number;
  online: number;
  never_seen: number;
  silent: number;
  uplinks_24h: number;
  images: number;
  commands_pending: number;
  alerts_active: number;
  integrations: number;
  integrations_failing: number;
  integrations_disabled: number;
}

/** One line of the account's recent activity (GET /user/activity), newest first. */
export interface ActivityRow {
  kind: 'seen' | 'command' | 'alert';
  at: Date;
  eui: string;
  label: string | null;
  /** The command's or the alert's uid; null for a device heard from. */
  ref: string | null;
  /** A command's status, an alert's state (`active`, `cleared`). */
  state: string | null;
  /** A command's name or port, an alert's message. */
  text: string | null;
}

/**
 * The device list a user interface pages through: filtered, sorted by any column with nulls last
 * and the EUI as tie-break, and paged by keyset (the last row's sort value and EUI), so a page
 * deep in 5,000 devices costs what the first does and rows never repeat or go missing between pages.
 */
@Injectable()
export class DeviceListRepository {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly reads: ReadDatabase,
  ) {}

  async page(accountId: number, request: DeviceListRequest): Promise<DeviceListPage> {
    const params: unknown[] = [accountId];
    const p = (value: unknown) => `$${params.push(value)}`;
    const where = [ACCESSIBLE];
    if (request.q !== null) {
      const like = `%${request.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const euiLike = `%${request.q.replace(/[-:\s]/g, '').replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      where.push(`(d.eui ILIKE ${p(euiLike)} OR d.label ILIKE ${p(like)} OR d.folder ILIKE ${p(like)})`);
    }
    if (request.folder !== null) where.push(`d.folder = ${p(request.folder)}`);
    if (request.typeRef !== null) where.push(`d.type_ref = ${p(request.typeRef)}`);
    if (request.online !== null) {
      const recent = `d.ts_activity_last >= now() - make_interval(secs => ${p(request.onlineSeconds)})`;
      where.push(request.online ? recent : `(d.ts_activity_last IS NULL OR NOT (${recent}))`);
    }
    const from = `${META_FROM}\n  LEFT JOIN device_types dt ON dt.uid = d.type_ref\n  WHERE ${where.join(' AND ')}`;
    const countParams = [...params];

    const sort = SORT[request.sort];
    const x = sort.sql;
    let keyset = '';
    if (request.after) {
      const e = p(request.after.eui);
      keyset =
        request.after.value === null
          ? `AND (${x} IS NULL AND d.eui > ${e})`
          : `AND ((${x} ${request.descending ? '<' : '>'} ${p(request.after.value)}::${sort.cast} OR (${x} = $${params.length}::${sort.cast} AND d.eui > ${e})) OR ${x} IS NULL)`;
    }
    const limit = request.limit === null ? '' : `LIMIT ${p(request.limit + 1)}`;
    const cursorValue = sort.cast === 'timestamptz' ? `to_char(${x} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')` : x;
    // A search a user asks for: bounded in time, and may be a moment stale (ReadDatabase).
    const [rows, counted] = await Promise.all([
      this.reads.query(
        `SELECT ${cursorValue} AS sort_value, ${META_COLUMNS} ${from} ${keyset}
         ORDER BY ${x} ${request.descending ? 'DESC' : 'ASC'} NULLS LAST, d.eui ${limit}`,
        params,
      ) as Promise<(DeviceMetaRow & { sort_value: string | number | null })[]>,
      this.reads.query(`SELECT count(*)::int AS n ${from}`, countParams) as Promise<{ n: number }[]>,
    ]);
    const more = request.limit !== null && rows.length > request.limit;
    const pageRows = more ? rows.slice(0, request.limit!) : rows;
    const last = pageRows[pageRows.length - 1];
    return {
      rows: pageRows.map(({ sort_value: _, ...row }) => row),
      total: onlyRow(counted).n,
      next: more && last ? { value: last.sort_value, eui: last.eui } : null,
    };
  }

  /**
   * The account's figures in one statement: its devices are found once (owner and share indexes),
   * and each count is an index range scan per device (uplinks by device and time, images and
   * commands by device).
   */
  async overview(accountId: number, onlineSeconds: number): Promise<AccountOverviewRow> {
    return queryOne<AccountOverviewRow>(
      this.ds,
      `WITH mine AS MATERIALIZED (SELECT d.uid, d.ts_activity_last FROM devices d WHERE ${ACCESSIBLE})
       SELECT (SELECT count(*)::int FROM mine) AS total,
              (SELECT count(*)::int FROM mine WHERE ts_activity_last >= now() - make_interval(secs => $2)) AS online,
              (SELECT count(*)::int FROM mine WHERE ts_activity_last IS NULL) AS never_seen,
              (SELECT count(*)::int FROM mine JOIN uplinks u ON u.device_id = mine.uid AND u.received_at >= now() - interval '24 hours') AS uplinks_24h,
              (SELECT count(*)::int FROM mine JOIN images i ON i.device_id = mine.uid AND i.deleted = 0) AS images,
              (SELECT count(*)::int FROM mine JOIN commands c ON c.device_id = mine.uid AND c.status IN ('Created', 'Scheduled', 'Sent')) AS commands_pending,
              (SELECT count(*)::int FROM mine WHERE ts_activity_last < now() - interval '24 hours') AS silent,
              (SELECT count(*)::int FROM alerts a WHERE a.account_id = $1 AND a.cleared_at IS NULL) AS alerts_active,
              i.total AS integrations, i.failing AS integrations_failing, i.disabled AS integrations_disabled
       FROM (SELECT count(*)::int AS total,
                    count(*) FILTER (WHERE enabled AND failing_since IS NOT NULL)::int AS failing,
                    count(*) FILTER (WHERE NOT enabled)::int AS disabled
             FROM integrations WHERE account_id = $1) i`,
      [accountId, onlineSeconds],
    );
  }

  /**
   * The account's latest happenings, newest first, at most `limit` of each kind before merging:
   * devices heard from (their last activity, one line per device, not per uplink: a device sending
   * every minute would otherwise fill the list), commands created or moved, alerts raised or
   * cleared. Each kind reads an index in its own order (devices by owner, commands per device,
   * alerts per account), so the cost grows with the account's devices, as the overview's does.
   */
  async activity(accountId: number, limit: number): Promise<ActivityRow[]> {
    return this.ds.query(
      `WITH mine AS MATERIALIZED (SELECT d.uid, d.eui, d.label, d.ts_activity_last FROM devices d WHERE ${ACCESSIBLE})
       (SELECT 'seen' AS kind, ts_activity_last AS at, eui, label, NULL::text AS ref, NULL::text AS state, NULL::text AS text
          FROM mine WHERE ts_activity_last IS NOT NULL ORDER BY ts_activity_last DESC LIMIT $2)
       UNION ALL
       (SELECT 'command', c.updated_at, mine.eui, mine.label, c.uid::text, c.status, coalesce(c.name, 'port ' || c.port)
          FROM mine CROSS JOIN LATERAL (SELECT * FROM commands c WHERE c.device_id = mine.uid ORDER BY c.created_at DESC, c.uid DESC LIMIT $2) c
          ORDER BY c.updated_at DESC LIMIT $2)
       UNION ALL
       (SELECT 'alert', coalesce(a.cleared_at, a.raised_at), d.eui, d.label, a.uid::text, CASE WHEN a.cleared_at IS NULL THEN 'active' ELSE 'cleared' END, a.message
          FROM alerts a JOIN devices d ON d.uid = a.device_id
          WHERE a.account_id = $1 AND d.deleted_at IS NULL ORDER BY a.raised_at DESC, a.uid DESC LIMIT $2)
       ORDER BY at DESC LIMIT $2`,
      [accountId, limit],
    );
  }

  /** Every device the account reaches (owns or is shared), for the account's live feed. */
  async refs(accountId: number): Promise<{ uid: number; eui: string; ownerId: number }[]> {
    const rows: { uid: number; eui: string; owner_id: number }[] = await this.ds.query(`SELECT d.uid, d.eui, d.owner_id FROM devices d WHERE ${ACCESSIBLE}`, [
      accountId,
    ]);
    return rows.map((r) => ({ uid: r.uid, eui: r.eui, ownerId: r.owner_id }));
  }

  /**
   * Which of these accounts reach the device now (own it or have it shared), with the device; null
   * when the device is gone. One query however many accounts follow it.
   */
  async reach(deviceUid: number, accountIds: readonly number[]): Promise<{ device: { uid: number; eui: string; ownerId: number }; accounts: number[] } | null> {
    const rows: { eui: string; owner_id: number; accounts: number[] | null }[] = await this.ds.query(
      `SELECT d.eui, d.owner_id,
              array(SELECT a FROM unnest($2::int[]) AS a
                    WHERE a = d.owner_id OR EXISTS (SELECT 1 FROM device_shares s WHERE s.device_id = d.uid AND s.account_id = a)) AS accounts
       FROM devices d WHERE d.uid = $1 AND d.deleted_at IS NULL`,
      [deviceUid, accountIds],
    );
    const row = rows[0];
    return row ? { device: { uid: deviceUid, eui: row.eui, ownerId: row.owner_id }, accounts: (row.accounts ?? []).map(Number) } : null;
  }
}
