import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { RuleDefinition } from '@dts/domain';
import { DataSource, type EntityManager } from 'typeorm';
import { onlyRow, queryOne, returningRows } from '../sql/sql-results';

export interface RuleRow extends RuleDefinition {
  uid: number;
  account_id: number;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `uid, account_id, name, kind, enabled, devices, email, fence_id AS fence, on_event AS "on", minutes, member, above, below, hysteresis, measure,
  created_at, updated_at`;

/** A device an offline rule may watch: what its filter reads, and when it was last heard. */
export interface WatchableDevice {
  uid: number;
  eui: string;
  folder: string | null;
  tags: unknown;
  ts_activity_last: Date | null;
}

/** An account's alert rules. */
@Injectable()
export class RulesRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  list(accountId: number): Promise<RuleRow[]> {
    return this.ds.query(`SELECT ${COLUMNS} FROM alert_rules WHERE account_id = $1 ORDER BY uid`, [accountId]);
  }

  async find(accountId: number, uid: number): Promise<RuleRow | null> {
    const rows: RuleRow[] = await this.ds.query(`SELECT ${COLUMNS} FROM alert_rules WHERE account_id = $1 AND uid = $2`, [accountId, uid]);
    return rows[0] ?? null;
  }

  async fenceOwned(accountId: number, fence: number): Promise<boolean> {
    return (await this.ds.query('SELECT 1 FROM fences WHERE account_id = $1 AND uid = $2', [accountId, fence])).length > 0;
  }

  /**
   * Stores a rule unless the account has `limit` already (null then); an offline rule starts
   * watching the devices it covers (`watch`) in the same transaction. The account row is locked
   * for the count, so concurrent creations cannot pass the limit together.
   */
  async create(accountId: number, d: RuleDefinition, watch: (tx: EntityManager, ruleUid: number) => Promise<void>, limit: number): Promise<RuleRow | null> {
    return this.ds.transaction(async (tx) => {
      await tx.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
      if ((await queryOne<{ n: number }>(tx, 'SELECT count(*)::int AS n FROM alert_rules WHERE account_id = $1', [accountId])).n >= limit) return null;
      const { uid } = onlyRow(
        await returningRows<{ uid: number }>(
          tx,
          `INSERT INTO alert_rules (account_id, name, kind, enabled, devices, email, fence_id, on_event, minutes, member, above, below, hysteresis, measure)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING uid`,
          [accountId, ...values(d)],
        ),
      );
      await watch(tx, uid);
      return queryOne<RuleRow>(tx, `SELECT ${COLUMNS} FROM alert_rules WHERE uid = $1`, [uid]);
    });
  }

  /**
   * Replaces the definition. The per-device states start over (a changed fence, limit or device set
   * makes the old ones meaningless); open alerts of the rule stay as they are, to be acknowledged.
   */
  async update(accountId: number, uid: number, d: RuleDefinition, watch: (tx: EntityManager, ruleUid: number) => Promise<void>): Promise<RuleRow | null> {
    return this.ds.transaction(async (tx) => {
      const rows = await returningRows<{ uid: number }>(
        tx,
        `UPDATE alert_rules SET name = $3, kind = $4, enabled = $5, devices = $6, email = $7, fence_id = $8, on_event = $9, minutes = $10, member = $11,
                above = $12, below = $13, hysteresis = $14, measure = $15, updated_at = now()
         WHERE account_id = $1 AND uid = $2 RETURNING uid`,
        [accountId, uid, ...values(d)],
      );
      if (rows.length === 0) return null;
      await tx.query('DELETE FROM rule_states WHERE rule_id = $1', [uid]);
      await watch(tx, uid);
      return queryOne<RuleRow>(tx, `SELECT ${COLUMNS} FROM alert_rules WHERE uid = $1`, [uid]);
    });
  }

  async delete(accountId: number, uid: number): Promise<boolean> {
    return (await returningRows(this.ds, 'DELETE FROM alert_rules WHERE account_id = $1 AND uid = $2 RETURNING 1', [accountId, uid])).length > 0;
  }

  /** The devices the account can see, for an offline rule to choose from with its filter. */
  watchable(tx: EntityManager, accountId: number): Promise<WatchableDevice[]> {
    return tx.query(
      `SELECT d.uid, d.eui, d.folder, d.tags, d.ts_activity_last FROM devices d
       WHERE d.deleted_at IS NULL AND (d.owner_id = $1 OR EXISTS (SELECT 1 FROM device_shares s WHERE s.device_id = d.uid AND s.account_id = $1))`,
      [accountId],
    );
  }

  /** Offline rule states for these devices: due `minutes` after each was last heard (or from now, when never). */
  async arm(tx: EntityManager, ruleUid: number, minutes: number, devices: WatchableDevice[]): Promise<void> {
    if (devices.length === 0) return;
    await tx.query(
      `INSERT INTO rule_states (rule_id, device_id, state, observed_at, due_at)
       SELECT $1, d.uid, 'online', now(), coalesce(d.ts_activity_last, now()) + $2 * interval '1 minute'
       FROM devices d WHERE d.uid = ANY($3::int[])
       ON CONFLICT (rule_id, device_id) DO NOTHING`,
      [ruleUid, minutes, devices.map((d) => d.uid)],
    );
  }
}

function values(d: RuleDefinition): unknown[] {
  return [
    d.name,
    d.kind,
    d.enabled,
    d.devices === null ? null : JSON.stringify(d.devices),
    d.email,
    d.fence,
    d.on,
    d.minutes,
    d.member,
    d.above,
    d.below,
    d.hysteresis,
    d.measure,
  ];
}
