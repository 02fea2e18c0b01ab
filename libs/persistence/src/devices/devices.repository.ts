import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ReadDatabase } from '../read/read-database';
import type { DeviceMetaRow } from './device-meta-columns';
import { DEVICE_META_COLUMNS, META_SELECT } from './device-meta-columns';
import { ACCESSIBLE } from './device-sql';
import { queryOne, returningRows } from '../sql/sql-results';
import { statement, Statements } from '../sql/statements';

/** GET /user/device: the EUIs the account may see, in order (docs/benchmarks.md, figure 4). */
const LIST_EUIS = statement('devices_list_euis', `SELECT d.eui FROM devices d WHERE ${ACCESSIBLE} ORDER BY d.eui`);

export type { DeviceMetaRow } from './device-meta-columns';

/** What the caller is to a device. */
export type DeviceRelationKind = 'owner' | 'shared';

export interface DeviceAccess {
  uid: number;
  eui: string;
  ownerId: number;
  relation: DeviceRelationKind;
  decoderRef: number | null;
}

/** The metadata columns a client may write (docs/api.md §4), by their column names. */
export const WRITABLE_META_COLUMNS = [
  'label',
  'folder',
  'tags',
  'installation_lat',
  'installation_lon',
  'lat',
  'lon',
  'alt',
  'battery_percent',
  'battery_voltage',
  'temperature_dc',
  'signal_percent',
  'signal_dbm',
  'firmware_version',
  'type_ref',
  'decoder_ref',
  'network_ref',
  'icon_ref',
  'user_ref',
  'uplink_retention_days',
] as const satisfies readonly (keyof typeof DEVICE_META_COLUMNS)[];
export type WritableMetaColumn = (typeof WRITABLE_META_COLUMNS)[number];

export type ReferenceKind = 'type_ref' | 'decoder_ref' | 'network_ref' | 'icon_ref' | 'account';

/** The caller's device by EUI: the first read of every route about one device (DeviceAccessService). */
const ACCESSIBLE_ONE = statement('device_accessible', `SELECT d.uid, d.eui, d.owner_id, d.decoder_ref FROM devices d WHERE d.eui = $2 AND ${ACCESSIBLE}`);

/** The metadata rows of the caller's devices, and of one of them. */
const META = {
  all: statement('device_meta_all', `${META_SELECT} WHERE ${ACCESSIBLE} ORDER BY d.eui`),
  one: statement('device_meta_one', `${META_SELECT} WHERE ${ACCESSIBLE} AND d.eui = $2`),
};

@Injectable()
export class DevicesRepository {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly statements: Statements,
    private readonly reads: ReadDatabase,
  ) {}

  /** The device if the account owns it or it is shared with it; null otherwise (no existence oracle). */
  async accessible(accountId: number, eui: string): Promise<DeviceAccess | null> {
    const rows = await this.statements.rows<{ uid: number; eui: string; owner_id: number; decoder_ref: number | null }>(ACCESSIBLE_ONE, [accountId, eui]);
    const row = rows[0];
    return row
      ? { uid: row.uid, eui: row.eui, ownerId: row.owner_id, decoderRef: row.decoder_ref, relation: row.owner_id === accountId ? 'owner' : 'shared' }
      : null;
  }

  /** Any live device by EUI, whoever owns it: for administrators only. */
  async byEui(eui: string): Promise<{ uid: number; eui: string } | null> {
    const rows: { uid: number; eui: string }[] = await this.ds.query('SELECT uid, eui FROM devices WHERE eui = $1 AND deleted_at IS NULL', [eui]);
    return rows[0] ?? null;
  }

  async listEuis(accountId: number): Promise<string[]> {
    const rows = await this.statements.rows<{ eui: string }>(LIST_EUIS, [accountId]);
    return rows.map((r) => r.eui);
  }

  /** EUIs whose EUI or label contains the text, case-insensitively. */
  async autocomplete(accountId: number, text: string, limit: number): Promise<string[]> {
    const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    // A search a user asks for: bounded in time, and may be a moment stale (ReadDatabase).
    const rows = await this.reads.query<{ eui: string }>(
      `SELECT d.eui FROM devices d WHERE ${ACCESSIBLE} AND (d.eui ILIKE $2 OR d.label ILIKE $2) ORDER BY d.eui LIMIT $3`,
      [accountId, pattern, limit],
    );
    return rows.map((r) => r.eui);
  }

  /** Metadata rows of the account's devices (one when `eui` is given), by EUI. */
  async metaRows(accountId: number, eui?: string): Promise<DeviceMetaRow[]> {
    return eui === undefined ? this.statements.rows(META.all, [accountId]) : this.statements.rows(META.one, [accountId, eui]);
  }

  async metaRowByUid(uid: number): Promise<DeviceMetaRow | null> {
    const rows: DeviceMetaRow[] = await this.ds.query(`${META_SELECT} WHERE d.uid = $1 AND d.deleted_at IS NULL`, [uid]);
    return rows[0] ?? null;
  }

  /** Writes the given metadata columns of a live device. */
  async updateMeta(uid: number, patch: Partial<Record<WritableMetaColumn, unknown>>): Promise<void> {
    const columns = Object.keys(patch).filter((c): c is WritableMetaColumn => (WRITABLE_META_COLUMNS as readonly string[]).includes(c));
    if (columns.length === 0) return;
    const values = columns.map((c) => (c === 'tags' && patch[c] !== null ? JSON.stringify(patch[c]) : patch[c]));
    await this.ds.query(`UPDATE devices SET ${columns.map((c, i) => `${c} = $${i + 2}`).join(', ')} WHERE uid = $1 AND deleted_at IS NULL`, [uid, ...values]);
  }

  /** Removes the device from every listing at once; the worker purges its history afterwards. */
  async softDelete(uid: number): Promise<void> {
    await this.ds.query('UPDATE devices SET deleted_at = now() WHERE uid = $1 AND deleted_at IS NULL', [uid]);
  }

  /**
   * Deletes up to `batch` uplinks of a deleted device (with the gateways that heard them); when none
   * are left, its rollups and the device row. Returns the uplinks deleted. The uplinks and what hangs
   * on them have no foreign key to `devices` (migration 1795830000000): this is how they go, also
   * for a device whose row went with its account.
   */
  async purgeBatch(uid: number, batch: number): Promise<number> {
    const { n: deleted } = await queryOne<{ n: number }>(
      this.ds,
      `WITH doomed AS (SELECT device_id, received_at, uid FROM uplinks WHERE device_id = $1 LIMIT $2),
            heard AS (DELETE FROM uplink_gateways g USING doomed x WHERE g.device_id = x.device_id AND g.received_at = x.received_at AND g.uplink_id = x.uid),
            gone AS (DELETE FROM uplinks u USING doomed x WHERE u.device_id = x.device_id AND u.received_at = x.received_at AND u.uid = x.uid RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [uid, batch],
    );
    if (deleted === 0) {
      // Gateways recorded without an uplink row (none are written so today) and the rollups.
      for (const table of ['uplink_gateways', 'uplink_rollups_hourly', 'uplink_rollups_daily', 'rollup_backfill']) {
        await this.ds.query(`DELETE FROM ${table} WHERE device_id = $1`, [uid]);
      }
      await this.ds.query('DELETE FROM devices WHERE uid = $1 AND deleted_at IS NOT NULL', [uid]);
    }
    return deleted;
  }

  /** Every device the account owns, deleted or not: their histories to purge when the account goes. */
  async ownedUids(accountId: number): Promise<number[]> {
    const rows: { uid: number }[] = await this.ds.query('SELECT uid FROM devices WHERE owner_id = $1', [accountId]);
    return rows.map((r) => r.uid);
  }

  async share(deviceUid: number, accountId: number): Promise<void> {
    await this.ds.query('INSERT INTO device_shares (device_id, account_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [deviceUid, accountId]);
  }

  /** The accounts the device is shared with, by username. */
  shares(deviceUid: number): Promise<{ user_id: number; username: string }[]> {
    return this.ds.query(
      'SELECT a.id AS user_id, a.username FROM device_shares s JOIN accounts a ON a.id = s.account_id WHERE s.device_id = $1 ORDER BY a.username_key',
      [deviceUid],
    );
  }

  async unshare(deviceUid: number, accountId: number): Promise<boolean> {
    const rows = await returningRows(this.ds, 'DELETE FROM device_shares WHERE device_id = $1 AND account_id = $2 RETURNING 1', [deviceUid, accountId]);
    return rows.length > 0;
  }

  /** What the account is to the device: its owner, a user it is shared with, or neither. */
  async relationOf(deviceUid: number, accountId: number): Promise<'owner' | 'shared' | 'none'> {
    const rows: { relation: 'owner' | 'shared' | 'none' }[] = await this.ds.query(
      `SELECT CASE WHEN d.owner_id = $2 THEN 'owner'
                   WHEN EXISTS (SELECT 1 FROM device_shares s WHERE s.device_id = d.uid AND s.account_id = $2) THEN 'shared'
                   ELSE 'none' END AS relation
       FROM devices d WHERE d.uid = $1`,
      [deviceUid, accountId],
    );
    return rows[0]?.relation ?? 'none';
  }

  /** Whether a referenced row exists; networks must be global or the account's own. */
  async referenceExists(kind: ReferenceKind, id: number, accountId: number): Promise<boolean> {
    const sql: Record<ReferenceKind, string> = {
      type_ref: 'SELECT 1 FROM device_types WHERE uid = $1',
      decoder_ref: 'SELECT 1 FROM decoders WHERE uid = $1 AND (account_id IS NULL OR account_id = $2)',
      network_ref: 'SELECT 1 FROM networks WHERE uid = $1 AND (account_id IS NULL OR account_id = $2)',
      icon_ref: 'SELECT 1 FROM icons WHERE uid = $1',
      account: 'SELECT 1 FROM accounts WHERE id = $1',
    };
    const rows: unknown[] = await this.ds.query(sql[kind], kind === 'network_ref' || kind === 'decoder_ref' ? [id, accountId] : [id]);
    return rows.length > 0;
  }

  async countLive(): Promise<number> {
    const { n } = await queryOne<{ n: number }>(this.ds, 'SELECT count(*)::int AS n FROM devices WHERE deleted_at IS NULL');
    return n;
  }
}
