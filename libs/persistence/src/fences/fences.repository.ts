import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ACCESSIBLE } from '../devices/device-sql';
import { onlyRow, returningRows } from '../sql/sql-results';

export interface FenceRow {
  uid: number;
  name: string;
  geometry: unknown;
  created_at: Date;
}

/** A device's position for the fence's test: the last reported one, else the installation position. */
export interface DevicePositionRow {
  eui: string;
  label: string;
  lat: number;
  lon: number;
  reported: boolean;
}

@Injectable()
export class FencesRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  list(accountId: number): Promise<FenceRow[]> {
    return this.ds.query('SELECT uid, name, geometry, created_at FROM fences WHERE account_id = $1 ORDER BY uid', [accountId]);
  }

  async find(accountId: number, uid: number): Promise<FenceRow | null> {
    const rows: FenceRow[] = await this.ds.query('SELECT uid, name, geometry, created_at FROM fences WHERE account_id = $1 AND uid = $2', [accountId, uid]);
    return rows[0] ?? null;
  }

  async create(accountId: number, name: string, geometry: unknown): Promise<FenceRow> {
    const rows: FenceRow[] = await this.ds.query(
      'INSERT INTO fences (account_id, name, geometry) VALUES ($1, $2, $3) RETURNING uid, name, geometry, created_at',
      [accountId, name, JSON.stringify(geometry)],
    );
    return onlyRow(rows);
  }

  /** Renames and/or reshapes the fence; a new shape moves its revision on (alert rules read it again). Null: not the account's. */
  async update(accountId: number, uid: number, change: { name?: string; geometry?: unknown }): Promise<FenceRow | null> {
    const rows = await returningRows<FenceRow>(
      this.ds,
      `UPDATE fences SET name = coalesce($3, name), geometry = coalesce($4::jsonb, geometry),
              revision = revision + CASE WHEN $4::jsonb IS NULL THEN 0 ELSE 1 END
       WHERE account_id = $1 AND uid = $2 RETURNING uid, name, geometry, created_at`,
      [accountId, uid, change.name ?? null, change.geometry === undefined ? null : JSON.stringify(change.geometry)],
    );
    return rows[0] ?? null;
  }

  /**
   * The devices the account reaches whose position lies in the bounding box (the fence's exact
   * shape is tested by the caller), at most `limit`, by EUI.
   */
  positionsWithin(accountId: number, box: { minLon: number; maxLon: number; minLat: number; maxLat: number }, limit: number): Promise<DevicePositionRow[]> {
    return this.ds.query(
      `SELECT eui, label, lat, lon, reported FROM (
         SELECT d.eui, d.label, CASE WHEN r THEN d.lat ELSE d.installation_lat END AS lat, CASE WHEN r THEN d.lon ELSE d.installation_lon END AS lon,
                r AS reported
         FROM devices d, LATERAL (SELECT d.lat IS NOT NULL AND d.lon IS NOT NULL AS r) k WHERE ${ACCESSIBLE}
       ) p
       WHERE lat BETWEEN $2 AND $3 AND lon BETWEEN $4 AND $5 ORDER BY eui LIMIT $6`,
      [accountId, box.minLat, box.maxLat, box.minLon, box.maxLon, limit],
    );
  }

  async delete(accountId: number, uid: number): Promise<boolean> {
    const rows = await returningRows(this.ds, 'DELETE FROM fences WHERE account_id = $1 AND uid = $2 RETURNING 1', [accountId, uid]);
    return rows.length > 0;
  }
}
