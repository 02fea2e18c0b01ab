import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { returningRows } from '../repositories/sql-results';

export interface CacheEntryStatus {
  version: number;
  /** The version the rendered rows belong to; null when never built. */
  builtVersion: number | null;
  rows: number;
  bytes: number;
  builtAt: Date | null;
}

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
    return r ? { version: r.version, builtVersion: r.built_version, rows: r.rows, bytes: Number(r.bytes), builtAt: r.built_at } : { version: 0, builtVersion: null, rows: 0, bytes: 0, builtAt: null };
  }

  async totals(): Promise<CacheTotals> {
    const [r]: { devices: number; entries: number; bytes: string; stale: number }[] = await this.ds.query(
      `SELECT (SELECT count(*)::int FROM devices WHERE deleted_at IS NULL) AS devices,
              count(*) FILTER (WHERE c.built_version = c.version)::int AS entries,
              coalesce(sum(c.bytes) FILTER (WHERE c.built_version = c.version), 0)::bigint AS bytes,
              count(*) FILTER (WHERE c.built_version IS NOT NULL AND c.built_version <> c.version)::int AS stale
       FROM data_cache c JOIN devices d ON d.uid = c.device_id AND d.deleted_at IS NULL`,
    );
    return { devices: r.devices, entries: r.entries, bytes: Number(r.bytes), stale: r.stale };
  }

  /** Moves the device's version on; returns the new one. */
  async invalidate(deviceUid: number): Promise<number> {
    const rows = await returningRows<{ version: number }>(
      this.ds,
      `INSERT INTO data_cache (device_id) VALUES ($1) ON CONFLICT (device_id) DO UPDATE SET version = data_cache.version + 1 RETURNING version`,
      [deviceUid],
    );
    return rows[0].version;
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
