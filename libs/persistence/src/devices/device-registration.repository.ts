import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { uniqueViolation } from '../sql/pg-errors';
import { queryOne, returningRows } from '../sql/sql-results';

export interface NewDevice {
  eui: string;
  label: string;
  folder: string | null;
  tags: unknown;
  typeRef: number | null;
  decoderRef: number | null;
  networkRef: number | null;
  iconRef: number | null;
}

export type RegisterDeviceResult = { ok: true; uid: number } | { ok: false; reason: 'exists' | 'owned-elsewhere' | 'limit' };

/**
 * Registering devices on an account, one (POST /user/device/{eui}) or a whole import, within the
 * account's device limit.
 */
@Injectable()
export class DeviceRegistrationRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * Registers the device on the account unless its EUI is taken or the account is at its limit: an
   * import of one (`registerMany`), whose taken EUI or limit is the reason.
   */
  async register(accountId: number, maxDevices: number, input: NewDevice): Promise<RegisterDeviceResult> {
    const result = await this.registerMany(accountId, maxDevices, [input]);
    if (result.ok) return { ok: true, uid: result.uids[0]! };
    return { ok: false, reason: result.taken.get(input.eui) ?? 'limit' };
  }

  /** Live devices the account owns (what `max_devices` counts). */
  async countOwned(accountId: number): Promise<number> {
    return (await queryOne<{ n: number }>(this.ds, 'SELECT count(*)::int AS n FROM devices WHERE owner_id = $1 AND deleted_at IS NULL', [accountId])).n;
  }

  /** Which of these EUIs are registered, and whether on this account. */
  async registered(accountId: number, euis: readonly string[]): Promise<Map<string, 'exists' | 'owned-elsewhere'>> {
    const rows: { eui: string; owner_id: number }[] = await this.ds.query(
      'SELECT eui, owner_id FROM devices WHERE eui = ANY($1::text[]) AND deleted_at IS NULL',
      [euis],
    );
    return new Map(rows.map((r) => [r.eui, r.owner_id === accountId ? 'exists' : 'owned-elsewhere']));
  }

  /**
   * Registers all the devices on the account, or none: in one transaction that locks the account
   * row (so that concurrent registrations cannot pass the limit together), checks the limit and the EUIs, and inserts every row with one
   * statement (arrays unnested, whatever the count). What stands in the way is answered instead.
   */
  async registerMany(
    accountId: number,
    maxDevices: number,
    devices: readonly NewDevice[],
  ): Promise<{ ok: true; uids: number[] } | { ok: false; owned: number; taken: Map<string, 'exists' | 'owned-elsewhere'> }> {
    try {
      return await this.registerManyOnce(accountId, maxDevices, devices);
    } catch (error) {
      // An EUI registered by another account between the check and the insert: say which.
      if (uniqueViolation(error) === null) throw error;
      return {
        ok: false,
        owned: await this.countOwned(accountId),
        taken: await this.registered(
          accountId,
          devices.map((d) => d.eui),
        ),
      };
    }
  }

  private registerManyOnce(accountId: number, maxDevices: number, devices: readonly NewDevice[]) {
    return this.ds.transaction(async (m) => {
      await m.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
      const euis = devices.map((d) => d.eui);
      const rows: { eui: string; owner_id: number }[] = await m.query('SELECT eui, owner_id FROM devices WHERE eui = ANY($1::text[]) AND deleted_at IS NULL', [
        euis,
      ]);
      const { n } = await queryOne<{ n: number }>(m, 'SELECT count(*)::int AS n FROM devices WHERE owner_id = $1 AND deleted_at IS NULL', [accountId]);
      if (rows.length > 0 || n + devices.length > maxDevices)
        return {
          ok: false as const,
          owned: n,
          taken: new Map(rows.map((r) => [r.eui, r.owner_id === accountId ? ('exists' as const) : ('owned-elsewhere' as const)])),
        };
      const inserted = await returningRows<{ uids: number[] }>(
        m,
        `WITH added AS (
           INSERT INTO devices (eui, owner_id, label, folder, tags, type_ref, decoder_ref, network_ref, icon_ref)
           SELECT r.eui, $1, r.label, r.folder, r.tags::jsonb, r.type_ref, r.decoder_ref, r.network_ref, r.icon_ref
           FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::int[], $8::int[], $9::int[])
             AS r(eui, label, folder, tags, type_ref, decoder_ref, network_ref, icon_ref)
           RETURNING uid)
         SELECT coalesce(array_agg(uid), '{}') AS uids FROM added`,
        [
          accountId,
          euis,
          devices.map((d) => d.label),
          devices.map((d) => d.folder),
          devices.map((d) => (d.tags === undefined || d.tags === null ? null : JSON.stringify(d.tags))),
          devices.map((d) => d.typeRef),
          devices.map((d) => d.decoderRef),
          devices.map((d) => d.networkRef),
          devices.map((d) => d.iconRef),
        ],
      );
      return { ok: true as const, uids: inserted[0]?.uids ?? [] };
    });
  }
}
