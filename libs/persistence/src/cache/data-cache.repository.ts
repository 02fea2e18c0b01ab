import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { onlyRow, queryOne, returningRows } from '../sql/sql-results';

export interface CacheEntryStatus {
  version: number;
  /** The version the rendered rows belong to; null when never built. */
  builtVersion: number | null;
  rows: number;
  bytes: number;
  builtAt: Date | null;
}

/** One device's entry as an administrator lists it. */
export interface CacheDeviceRow {
  eui: string;
  label: string;
  owner: string;
  version: number;
  built_version: number | null;
  rows: number;
  bytes: string;
  built_at: Date | null;
}

/** An entry's counts by state, over every page of a listing: what its rows say, counted. */
export interface CacheEntryCounts {
  /** Built for the device's current version. */
  fresh: number;
  /** Built for an older version. */
  stale: number;
  /** Never built (no uplink yet, or no rebuild finished). */
  never_built: number;
}

/**
 * One device's entry state, the one definition both the listing's filter and its counts use (an
 * entry row may be missing: a device before its first uplink). `stale=true` keeps what is not fresh.
 */
const ENTRY_STATE = `CASE WHEN c.built_version IS NULL THEN 'never_built' WHEN c.built_version = c.version THEN 'fresh' ELSE 'stale' END`;
const ENTRY_FILTER = `($1::boolean IS NULL OR (${ENTRY_STATE} <> 'fresh') = $1)`;
const LISTED_ENTRIES = `devices d JOIN accounts a ON a.id = d.owner_id LEFT JOIN data_cache c ON c.device_id = d.uid WHERE d.deleted_at IS NULL AND ${ENTRY_FILTER}`;

export interface CacheTotals {
  devices: number;
  entries: number;
  bytes: number;
  stale: number;
}

/**
 * The per-device data cache's bookkeeping, always in PostgreSQL: the version (moved on by every
 * invalidation, new uplinks included) and what was built for which version. An entry is fresh only
 * while its built version is its version, so a stale rendering is never served.
 */
@Injectable()
export class DataCacheRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The device's cache version; 0 before its first uplink. */
  async version(deviceUid: number): Promise<number> {
    const rows: { version: number }[] = await this.ds.query('SELECT version FROM data_cache WHERE device_id = $1', [deviceUid]);
    return rows[0]?.version ?? 0;
  }

  async status(deviceUid: number): Promise<CacheEntryStatus> {
    const rows: { version: number; built_version: number | null; rows: number; bytes: string; built_at: Date | null }[] = await this.ds.query(
      'SELECT version, built_version, rows, bytes, built_at FROM data_cache WHERE device_id = $1',
      [deviceUid],
    );
    const r = rows[0];
    return r
      ? { version: r.version, builtVersion: r.built_version, rows: r.rows, bytes: Number(r.bytes), builtAt: r.built_at }
      : { version: 0, builtVersion: null, rows: 0, bytes: 0, builtAt: null };
  }

  async totals(): Promise<CacheTotals> {
    const r = await queryOne<{ devices: number; entries: number; bytes: string; stale: number }>(
      this.ds,
      `SELECT (SELECT count(*)::int FROM devices WHERE deleted_at IS NULL) AS devices,
              count(*) FILTER (WHERE c.built_version = c.version)::int AS entries,
              coalesce(sum(c.bytes) FILTER (WHERE c.built_version = c.version), 0)::bigint AS bytes,
              count(*) FILTER (WHERE c.built_version IS NOT NULL AND c.built_version <> c.version)::int AS stale
       FROM data_cache c JOIN devices d ON d.uid = c.device_id AND d.deleted_at IS NULL`,
    );
    return { devices: r.devices, entries: r.entries, bytes: Number(r.bytes), stale: r.stale };
  }

  /**
   * Every live device's entry (a device without one yet shows version 0, never built), by EUI, in
   * keyset pages after `afterEui`; `stale` keeps only the entries not built for their current version
   * (true: never built included, as GET /cache/status/{eui} says) or only the fresh ones (false).
   */
  entries(stale: boolean | null, limit: number, afterEui: string | null): Promise<CacheDeviceRow[]> {
    return this.ds.query(
      `SELECT d.eui, d.label, a.username AS owner, coalesce(c.version, 0) AS version, c.built_version, coalesce(c.rows, 0) AS rows,
              coalesce(c.bytes, 0)::text AS bytes, c.built_at
       FROM ${LISTED_ENTRIES} AND ($2::text IS NULL OR d.eui > $2)
       ORDER BY d.eui LIMIT $3`,
      [stale, afterEui, limit],
    );
  }

  /** The entries `entries` lists with the same `stale`, over all its pages, counted by state. */
  async entryCounts(stale: boolean | null): Promise<CacheEntryCounts> {
    const r = await queryOne<CacheEntryCounts>(
      this.ds,
      `SELECT count(*) FILTER (WHERE s = 'fresh')::int AS fresh, count(*) FILTER (WHERE s = 'stale')::int AS stale,
              count(*) FILTER (WHERE s = 'never_built')::int AS never_built
       FROM (SELECT ${ENTRY_STATE} AS s FROM ${LISTED_ENTRIES}) e`,
      [stale],
    );
    return { fresh: r.fresh, stale: r.stale, never_built: r.never_built };
  }

  /** Moves the device's version on; returns the new one. */
  async invalidate(deviceUid: number): Promise<number> {
    const rows = await returningRows<{ version: number }>(
      this.ds,
      `INSERT INTO data_cache (device_id) VALUES ($1) ON CONFLICT (device_id) DO UPDATE SET version = data_cache.version + 1 RETURNING version`,
      [deviceUid],
    );
    return onlyRow(rows).version;
  }

  /** Moves every live device's version on; returns each device with its new version. */
  async invalidateAll(): Promise<{ deviceUid: number; version: number }[]> {
    const rows = await returningRows<{ device_id: number; version: number }>(
      this.ds,
      `INSERT INTO data_cache (device_id) SELECT uid FROM devices WHERE deleted_at IS NULL
       ON CONFLICT (device_id) DO UPDATE SET version = data_cache.version + 1 RETURNING device_id, version`,
      [],
    );
    return rows.map((r) => ({ deviceUid: r.device_id, version: r.version }));
  }

  /** Records a finished build, unless the version moved on meanwhile (then the build is discarded). */
  async finishBuild(deviceUid: number, version: number, rows: number, bytes: number): Promise<boolean> {
    const done = await returningRows(
      this.ds,
      'UPDATE data_cache SET built_version = $2, rows = $3, bytes = $4, built_at = now() WHERE device_id = $1 AND version = $2 RETURNING 1',
      [deviceUid, version, rows, bytes],
    );
    return done.length > 0;
  }
}
