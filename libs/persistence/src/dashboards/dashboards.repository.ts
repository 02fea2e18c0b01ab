import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { onlyRow, queryOne, returningRows } from '../sql/sql-results';

export interface DashboardRow {
  uid: number;
  name: string;
  widgets: unknown[];
  shared_role: 'viewer' | 'operator' | 'admin' | null;
  created_by: number | null;
  /** The maker's username; null once their account is gone. */
  maker: string | null;
  created_at: Date;
  updated_at: Date;
}

/**
 * Who is looking: the person (`userId`), and the share roles their role in the account reaches
 * (a viewer: ['viewer']; an admin or owner: all three). A dashboard is visible to its maker, and
 * to everyone whose reach includes its `shared_role`.
 */
export interface DashboardViewer {
  accountId: number;
  userId: number;
  reach: readonly string[];
}

export interface DashboardContent {
  name: string;
  widgets: unknown[];
  shared_role: string | null;
}

const COLUMNS = `d.uid, d.name, d.widgets, d.shared_role, d.created_by, a.username AS maker,
                 d.created_at, d.updated_at`;
const FROM = `dashboards d LEFT JOIN accounts a ON a.id = d.created_by`;
const VISIBLE = `d.account_id = $1 AND (d.created_by = $2 OR d.shared_role = ANY($3::text[]))`;

@Injectable()
export class DashboardsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The dashboards the viewer sees, by name (then uid), with their widgets. */
  list(v: DashboardViewer): Promise<DashboardRow[]> {
    return this.ds.query(`SELECT ${COLUMNS} FROM ${FROM} WHERE ${VISIBLE} ORDER BY lower(d.name), d.uid`, [v.accountId, v.userId, v.reach]);
  }

  async find(v: DashboardViewer, uid: number): Promise<DashboardRow | null> {
    const rows: DashboardRow[] = await this.ds.query(`SELECT ${COLUMNS} FROM ${FROM} WHERE ${VISIBLE} AND d.uid = $4`, [v.accountId, v.userId, v.reach, uid]);
    return rows[0] ?? null;
  }

  /** Null: the account holds `limit` dashboards already (counted under the account's lock, so parallel creations keep to it). */
  async create(v: DashboardViewer, content: DashboardContent, limit: number): Promise<DashboardRow | null> {
    return this.ds.transaction(async (tx) => {
      await tx.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [v.accountId]);
      if ((await queryOne<{ n: number }>(tx, 'SELECT count(*)::int AS n FROM dashboards WHERE account_id = $1', [v.accountId])).n >= limit) return null;
      const { uid } = onlyRow(
        await returningRows<{ uid: number }>(
          tx,
          'INSERT INTO dashboards (account_id, created_by, name, widgets, shared_role) VALUES ($1, $2, $3, $4::jsonb, $5) RETURNING uid',
          [v.accountId, v.userId, content.name, JSON.stringify(content.widgets), content.shared_role],
        ),
      );
      return queryOne<DashboardRow>(tx, `SELECT ${COLUMNS} FROM ${FROM} WHERE d.uid = $1`, [uid]);
    });
  }

  /**
   * Writes the members given (undefined: unchanged; `shared_role` may become null) of a dashboard
   * the account holds, and moves `updated_at` on. Null: no such dashboard in the account.
   */
  async update(accountId: number, uid: number, change: Partial<DashboardContent>): Promise<DashboardRow | null> {
    const rows = await returningRows<{ uid: number }>(
      this.ds,
      `UPDATE dashboards SET name = coalesce($3, name), widgets = coalesce($4::jsonb, widgets),
              shared_role = CASE WHEN $5 THEN $6 ELSE shared_role END, updated_at = now()
       WHERE account_id = $1 AND uid = $2 RETURNING uid`,
      [
        accountId,
        uid,
        change.name ?? null,
        change.widgets === undefined ? null : JSON.stringify(change.widgets),
        change.shared_role !== undefined,
        change.shared_role ?? null,
      ],
    );
    if (rows.length === 0) return null;
    return queryOne<DashboardRow>(this.ds, `SELECT ${COLUMNS} FROM ${FROM} WHERE d.uid = $1`, [uid]);
  }

  async delete(accountId: number, uid: number): Promise<boolean> {
    const rows = await returningRows(this.ds, 'DELETE FROM dashboards WHERE account_id = $1 AND uid = $2 RETURNING 1', [accountId, uid]);
    return rows.length > 0;
  }

  /** Which of the EUIs name no device the account reaches (owned or shared with it, not deleted). */
  async unknownEuis(accountId: number, euis: readonly string[]): Promise<string[]> {
    if (euis.length === 0) return [];
    const rows: { eui: string }[] = await this.ds.query(
      `SELECT e.eui FROM unnest($2::text[]) WITH ORDINALITY AS e(eui, n)
       WHERE NOT EXISTS (SELECT 1 FROM devices d WHERE d.eui = e.eui AND d.deleted_at IS NULL
                         AND (d.owner_id = $1 OR EXISTS (SELECT 1 FROM device_shares s WHERE s.device_id = d.uid AND s.account_id = $1)))
       ORDER BY e.n`,
      [accountId, euis],
    );
    return rows.map((r) => r.eui);
  }
}
