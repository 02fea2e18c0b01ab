import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DeviceFilterWire, EventType, IntegrationKind } from '@dts/domain';
import { DataSource } from 'typeorm';
import { onlyRow, queryOne, returningRows } from '../sql/sql-results';

export interface IntegrationRow {
  uid: number;
  account_id: number;
  name: string;
  kind: IntegrationKind;
  url: string;
  events: EventType[];
  devices: DeviceFilterWire | null;
  enabled: boolean;
  disabled_reason: string | null;
  disabled_at: Date | null;
  failing_since: Date | null;
  last_error: string | null;
  last_success_at: Date | null;
  topic: string | null;
  qos: 0 | 1 | null;
  username: string | null;
  has_password: boolean;
  created_at: Date;
  updated_at: Date;
  pending: number;
}

/** An integration with what it takes to deliver to it (secrets still sealed). */
export interface IntegrationTarget extends IntegrationRow {
  secret_encrypted: Buffer | null;
  password_encrypted: Buffer | null;
}

/** Members an account sets; secrets arrive sealed (TokenCryptoService). */
export interface IntegrationChanges {
  name?: string;
  url?: string;
  events?: EventType[];
  devices?: DeviceFilterWire | null;
  enabled?: boolean;
  topic?: string | null;
  qos?: 0 | 1 | null;
  username?: string | null;
  passwordEncrypted?: Buffer | null;
}

export interface NewIntegration extends Required<Omit<IntegrationChanges, 'passwordEncrypted' | 'enabled'>> {
  kind: IntegrationKind;
  enabled: boolean;
  secretEncrypted: Buffer | null;
  passwordEncrypted: Buffer | null;
}

const BASE_COLUMNS = `i.uid, i.account_id, i.name, i.kind, i.url, i.events, i.devices, i.enabled, i.disabled_reason, i.disabled_at, i.failing_since,
  i.last_error, i.last_success_at, i.topic, i.qos, i.username, i.password_encrypted IS NOT NULL AS has_password, i.created_at, i.updated_at`;
const COLUMNS = `${BASE_COLUMNS}, (SELECT count(*)::int FROM integration_deliveries d WHERE d.integration_id = i.uid AND d.state = 'pending') AS pending`;

/** An account's outbound integrations (webhooks, MQTT brokers). */
@Injectable()
export class IntegrationsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  list(accountId: number): Promise<IntegrationRow[]> {
    return this.ds.query(`SELECT ${COLUMNS} FROM integrations i WHERE i.account_id = $1 ORDER BY i.uid`, [accountId]);
  }

  async find(accountId: number, uid: number): Promise<IntegrationRow | null> {
    const rows: IntegrationRow[] = await this.ds.query(`SELECT ${COLUMNS} FROM integrations i WHERE i.account_id = $1 AND i.uid = $2`, [accountId, uid]);
    return rows[0] ?? null;
  }

  async count(accountId: number): Promise<number> {
    return (await queryOne<{ n: number }>(this.ds, 'SELECT count(*)::int AS n FROM integrations WHERE account_id = $1', [accountId])).n;
  }

  /** For the worker: the integration with its sealed secrets, whoever owns it. */
  async target(uid: number): Promise<IntegrationTarget | null> {
    const rows: IntegrationTarget[] = await this.ds.query(`SELECT ${COLUMNS}, i.secret_encrypted, i.password_encrypted FROM integrations i WHERE i.uid = $1`, [
      uid,
    ]);
    return rows[0] ?? null;
  }

  async create(accountId: number, n: NewIntegration): Promise<IntegrationRow> {
    const { uid } = onlyRow(
      await returningRows<{ uid: number }>(
        this.ds,
        `INSERT INTO integrations (account_id, name, kind, url, events, devices, enabled, secret_encrypted, topic, qos, username, password_encrypted)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING uid`,
        [
          accountId,
          n.name,
          n.kind,
          n.url,
          n.events,
          n.devices === null ? null : JSON.stringify(n.devices),
          n.enabled,
          n.secretEncrypted,
          n.topic,
          n.qos,
          n.username,
          n.passwordEncrypted,
        ],
      ),
    );
    return (await this.find(accountId, uid))!;
  }

  /**
   * Applies the changes; enabling clears why the service had disabled it and makes every waiting
   * lane due at once, so that held-back deliveries go out now.
   */
  async update(accountId: number, uid: number, c: IntegrationChanges): Promise<IntegrationRow | null> {
    const sets: string[] = ['updated_at = now()'];
    const params: unknown[] = [accountId, uid];
    const set = (column: string, value: unknown) => {
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    };
    if (c.name !== undefined) set('name', c.name);
    if (c.url !== undefined) set('url', c.url);
    if (c.events !== undefined) set('events', c.events);
    if (c.devices !== undefined) set('devices', c.devices === null ? null : JSON.stringify(c.devices));
    if (c.topic !== undefined) set('topic', c.topic);
    if (c.qos !== undefined) set('qos', c.qos);
    if (c.username !== undefined) set('username', c.username);
    if (c.passwordEncrypted !== undefined) set('password_encrypted', c.passwordEncrypted);
    if (c.enabled !== undefined) {
      set('enabled', c.enabled);
      if (c.enabled) sets.push('disabled_reason = NULL', 'disabled_at = NULL', 'failing_since = NULL');
      else sets.push('disabled_at = now()');
    }
    return this.ds.transaction(async (tx) => {
      const rows = await returningRows<{ uid: number }>(
        tx,
        `UPDATE integrations SET ${sets.join(', ')} WHERE account_id = $1 AND uid = $2 RETURNING uid`,
        params,
      );
      if (rows.length === 0) return null;
      if (c.enabled === true) {
        // A lane a worker still holds is not made due beside it (it would be sent twice at once): it is
        // asked for as a redelivery is, and its release makes it due.
        await tx.query(
          `UPDATE integration_lanes l SET
             next_at = CASE WHEN l.held_until > now() THEN coalesce(l.next_at, l.held_until) ELSE now() END,
             redelivered = CASE WHEN l.held_until > now() THEN l.redelivered + 1 ELSE l.redelivered END
           WHERE l.integration_id = $1
             AND EXISTS (SELECT 1 FROM integration_deliveries d WHERE d.integration_id = l.integration_id AND d.device_id = l.device_id AND d.state = 'pending')`,
          [uid],
        );
      }
      return queryOne<IntegrationRow>(tx, `SELECT ${COLUMNS} FROM integrations i WHERE i.uid = $1`, [uid]);
    });
  }

  async delete(accountId: number, uid: number): Promise<boolean> {
    return (await returningRows(this.ds, 'DELETE FROM integrations WHERE account_id = $1 AND uid = $2 RETURNING 1', [accountId, uid])).length > 0;
  }

  /** The EUIs among `euis` that are not devices the account can see (owned or shared). */
  async unknownEuis(accountId: number, euis: string[]): Promise<string[]> {
    if (euis.length === 0) return [];
    const rows: { eui: string }[] = await this.ds.query(
      `SELECT e.eui FROM unnest($2::text[]) AS e(eui)
       WHERE NOT EXISTS (SELECT 1 FROM devices d WHERE d.eui = e.eui AND d.deleted_at IS NULL
                         AND (d.owner_id = $1 OR EXISTS (SELECT 1 FROM device_shares s WHERE s.device_id = d.uid AND s.account_id = $1)))`,
      [accountId, euis],
    );
    return rows.map((r) => r.eui);
  }

  // ---- The worker's view of an integration's health ----

  /** Of `uids`, those that still exist and are enabled: the worker abandons its attempts to the others. */
  async enabledAmong(uids: readonly number[]): Promise<Set<number>> {
    if (uids.length === 0) return new Set();
    const rows: { uid: number }[] = await this.ds.query('SELECT uid FROM integrations WHERE uid = ANY($1::int[]) AND enabled', [uids]);
    return new Set(rows.map((r) => r.uid));
  }

  /** A delivery succeeded: the integration is no longer failing. Written only on a change (or once a minute), not per delivery. */
  async succeeded(uid: number): Promise<void> {
    await this.ds.query(
      `UPDATE integrations SET failing_since = NULL, last_success_at = now()
       WHERE uid = $1 AND (failing_since IS NOT NULL OR last_success_at IS NULL OR last_success_at < now() - interval '1 minute')`,
      [uid],
    );
  }

  /**
   * A delivery failed. Returns whether this disabled the integration: failing continuously for
   * `disableAfterMs`, or `gone` (the receiver answered 410), with the reason kept for the account.
   */
  async failed(uid: number, error: string, disableAfterMs: number, gone: boolean): Promise<boolean> {
    const rows = await returningRows<{ disabled: boolean }>(
      this.ds,
      `UPDATE integrations i SET failing_since = coalesce(i.failing_since, now()), last_error = $2,
              enabled = CASE WHEN $4 OR coalesce(i.failing_since, now()) <= now() - $3 * interval '1 millisecond' THEN false ELSE i.enabled END,
              disabled_at = CASE WHEN $4 OR coalesce(i.failing_since, now()) <= now() - $3 * interval '1 millisecond' THEN now() ELSE i.disabled_at END,
              disabled_reason = CASE
                WHEN $4 THEN 'the receiver answered 410 Gone: ' || $2
                WHEN coalesce(i.failing_since, now()) <= now() - $3 * interval '1 millisecond'
                  THEN 'every delivery failed since ' || to_char(coalesce(i.failing_since, now()) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') || ' UTC; last error: ' || $2
                ELSE i.disabled_reason END
       WHERE i.uid = $1 AND i.enabled
       RETURNING NOT i.enabled AS disabled`,
      [uid, error.slice(0, 500), disableAfterMs, gone],
    );
    const disabled = rows[0]?.disabled ?? false;
    // A held lane keeps its lease's end: its holder's release decides, and if the holder died the lane must still come due.
    if (disabled)
      await this.ds.query('UPDATE integration_lanes SET next_at = NULL WHERE integration_id = $1 AND NOT coalesce(held_until > now(), false)', [uid]);
    return disabled;
  }
}
