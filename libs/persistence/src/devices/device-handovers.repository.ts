import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
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
      const moved = await queryOne<{ decoder_ref: number | null }>(
        m,
        `UPDATE devices d SET owner_id = $2, user_ref = NULL, link_generation = d.link_generation + 1,
                network_ref = CASE WHEN EXISTS (SELECT 1 FROM networks n WHERE n.uid = d.network_ref AND n.account_id IS NOT NULL AND n.account_id <> $2)
                                   THEN $3 ELSE d.network_ref END,
                decoder_ref = CASE WHEN EXISTS (SELECT 1 FROM decoders c WHERE c.uid = d.decoder_ref AND c.account_id IS NOT NULL AND c.account_id <> $2)
                                   THEN $4 ELSE d.decoder_ref END
         WHERE d.uid = $1 RETURNING d.decoder_ref`,
        [offer.device_id, toAccount, HANDOVER_DEFAULTS.networkRef, HANDOVER_DEFAULTS.decoderRef],
      );
      await m.query('DELETE FROM device_shares WHERE device_id = $1', [offer.device_id]);
      await m.query('DELETE FROM device_handovers WHERE uid = $1', [offer.uid]);
      return { ok: true as const, deviceUid: offer.device_id, decoderChanged: moved.decoder_ref !== offer.decoder_ref };
    });
  }
}
