import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { queryOne, returningRows } from '../sql/sql-results';

export interface HandoverRow {
  eui: string;
  label: string;
  from_id: number;
  from_username: string;
  to_id: number;
  to_username: string;
  created_at: Date;
}

/** A device's network and decoder when the account's own ones do not go with it. */
export const HANDOVER_DEFAULTS = { networkRef: 1, decoderRef: 1 } as const;

export type AcceptResult = { ok: true; deviceUid: number; decoderChanged: boolean } | { ok: false; reason: 'none' | 'limit' };

const OFFER_SELECT = `
  SELECT d.eui, d.label, f.id AS from_id, f.username AS from_username, t.id AS to_id, t.username AS to_username, h.created_at
  FROM device_handovers h
  JOIN devices d ON d.uid = h.device_id AND d.deleted_at IS NULL AND d.owner_id = h.from_account
  JOIN accounts f ON f.id = h.from_account
  JOIN accounts t ON t.id = h.to_account`;

/**
 * Hand-over offers. An offer only counts while its maker still owns the device (a device deleted
 * or handed over otherwise leaves its offer behind, never shown and never accepted).
 */
@Injectable()
export class DeviceHandoversRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Makes the device's offer, replacing any other (one open offer per device). */
  async offer(deviceUid: number, fromAccount: number, toAccount: number): Promise<void> {
    await this.ds.query(
      `INSERT INTO device_handovers (device_id, from_account, to_account) VALUES ($1, $2, $3)
       ON CONFLICT (device_id) DO UPDATE SET from_account = EXCLUDED.from_account, to_account = EXCLUDED.to_account, created_at = now()`,
      [deviceUid, fromAccount, toAccount],
    );
  }

  async byDevice(eui: string): Promise<HandoverRow | null> {
    const rows: HandoverRow[] = await this.ds.query(`${OFFER_SELECT} WHERE d.eui = $1`, [eui]);
    return rows[0] ?? null;
  }

  /** Offers the account received and made, newest first. */
  async forAccount(accountId: number): Promise<{ received: HandoverRow[]; made: HandoverRow[] }> {
    const rows: HandoverRow[] = await this.ds.query(`${OFFER_SELECT} WHERE h.to_account = $1 OR h.from_account = $1 ORDER BY h.created_at DESC, d.eui`, [
      accountId,
    ]);
    return { received: rows.filter((r) => r.to_id === accountId), made: rows.filter((r) => r.from_id === accountId) };
  }

  /** Ends the device's offer when `side` of it is this account; false when there was none. */
  async close(eui: string, accountId: number, side: 'to' | 'from'): Promise<boolean> {
    const rows = await returningRows(
      this.ds,
      `DELETE FROM device_handovers h USING devices d
       WHERE d.uid = h.device_id AND d.eui = $1 AND d.deleted_at IS NULL AND h.${side === 'to' ? 'to_account' : 'from_account'} = $2 RETURNING 1`,
      [eui, accountId],
    );
    return rows.length > 0;
  }

  /**
   * Accepts the offer of the device to this account, in one transaction: within the receiver's
   * device limit (its row locked, as a registration does), the device becomes the receiver's;
   * a network or codec that belongs to another account falls back to the defaults, the assigned
   * user is cleared, every share ends, and the link generation moves on (the previous owner's
   * signed image links stop working). The offer must still be its maker's to give.
   */
  async accept(eui: string, toAccount: number): Promise<AcceptResult> {
    return this.ds.transaction(async (m) => {
      const offers: { uid: number; device_id: number; decoder_ref: number | null }[] = await m.query(
        `SELECT h.uid, h.device_id, d.decoder_ref FROM device_handovers h JOIN devices d ON d.uid = h.device_id
         WHERE d.eui = $1 AND h.to_account = $2 AND d.deleted_at IS NULL AND d.owner_id = h.from_account
         FOR UPDATE OF h, d`,
        [eui, toAccount],
      );
      const offer = offers[0];
      if (!offer) return { ok: false as const, reason: 'none' as const };
      const { max_devices } = await queryOne<{ max_devices: number }>(m, 'SELECT max_devices FROM accounts WHERE id = $1 FOR UPDATE', [toAccount]);
      const { n } = await queryOne<{ n: number }>(m, 'SELECT count(*)::int AS n FROM devices WHERE owner_id = $1 AND deleted_at IS NULL', [toAccount]);
      if (n >= max_devices) return { ok: false as const, reason: 'limit' as const };
      const [moved] = await moveDevices(m, [offer.device_id], toAccount);
      await m.query('DELETE FROM device_shares WHERE device_id = $1', [offer.device_id]);
      await m.query('DELETE FROM device_handovers WHERE uid = $1', [offer.uid]);
      return { ok: true as const, deviceUid: offer.device_id, decoderChanged: moved!.decoder_ref !== offer.decoder_ref };
    });
  }

  /** Whether every live device of one account fits within the other's device limit now (transferAll checks again). */
  async room(fromAccount: number, toAccount: number): Promise<{ needed: number; room: number }> {
    return queryOne<{ needed: number; room: number }>(
      this.ds,
      `SELECT (SELECT count(*)::int FROM devices WHERE owner_id = $1 AND deleted_at IS NULL) AS needed,
              greatest(0, a.max_devices - (SELECT count(*)::int FROM devices WHERE owner_id = $2 AND deleted_at IS NULL)) AS room
       FROM accounts a WHERE a.id = $2`,
      [fromAccount, toAccount],
    );
  }

  /**
   * Every live device of one account to another at once, without an offer (an administrator
   * deleting the account chose it), as an accepted offer moves one: within the receiver's device
   * limit for them all, or none moves. Offers of and to the giving account end. Answers the devices
   * whose codec fell back to the default (their history is decoded again).
   */
  async transferAll(fromAccount: number, toAccount: number): Promise<TransferResult> {
    return this.ds.transaction(async (m) => {
      const { max_devices } = await queryOne<{ max_devices: number }>(m, 'SELECT max_devices FROM accounts WHERE id = $1 FOR UPDATE', [toAccount]);
      const devices: { uid: number; decoder_ref: number | null }[] = await m.query(
        'SELECT uid, decoder_ref FROM devices WHERE owner_id = $1 AND deleted_at IS NULL ORDER BY uid FOR UPDATE',
        [fromAccount],
      );
      const { n } = await queryOne<{ n: number }>(m, 'SELECT count(*)::int AS n FROM devices WHERE owner_id = $1 AND deleted_at IS NULL', [toAccount]);
      if (n + devices.length > max_devices) return { ok: false as const, reason: 'limit' as const, needed: devices.length, room: Math.max(0, max_devices - n) };
      const uids = devices.map((d) => d.uid);
      const moved = await moveDevices(m, uids, toAccount);
      const before = new Map(devices.map((d) => [d.uid, d.decoder_ref]));
      await m.query('DELETE FROM device_shares WHERE device_id = ANY($1::int[])', [uids]);
      await m.query('DELETE FROM device_handovers WHERE device_id = ANY($1::int[]) OR from_account = $2 OR to_account = $2', [uids, fromAccount]);
      return {
        ok: true as const,
        moved: uids.length,
        decoderChanged: moved.filter((d) => d.decoder_ref !== before.get(d.uid)).map((d) => ({ deviceUid: d.uid, decoderRef: d.decoder_ref })),
      };
    });
  }
}

export type TransferResult =
  | { ok: true; moved: number; decoderChanged: { deviceUid: number; decoderRef: number | null }[] }
  | { ok: false; reason: 'limit'; needed: number; room: number };

/**
 * Makes the devices the receiver's, as a hand-over does: a network or codec that belongs to another
 * account falls back to the defaults, the assigned user is cleared, and the link generation moves
 * on (the previous owner's signed image links stop working). Shares and offers are the caller's.
 */
function moveDevices(m: EntityManager, deviceUids: number[], toAccount: number): Promise<{ uid: number; decoder_ref: number | null }[]> {
  return returningRows<{ uid: number; decoder_ref: number | null }>(
    m,
    `UPDATE devices d SET owner_id = $2, user_ref = NULL, link_generation = d.link_generation + 1,
            network_ref = CASE WHEN EXISTS (SELECT 1 FROM networks n WHERE n.uid = d.network_ref AND n.account_id IS NOT NULL AND n.account_id <> $2)
                               THEN $3 ELSE d.network_ref END,
            decoder_ref = CASE WHEN EXISTS (SELECT 1 FROM decoders c WHERE c.uid = d.decoder_ref AND c.account_id IS NOT NULL AND c.account_id <> $2)
                               THEN $4 ELSE d.decoder_ref END
     WHERE d.uid = ANY($1::int[]) RETURNING d.uid, d.decoder_ref`,
    [deviceUids, toAccount, HANDOVER_DEFAULTS.networkRef, HANDOVER_DEFAULTS.decoderRef],
  );
}
