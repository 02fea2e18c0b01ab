import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { COMMAND_STATUS_RANK, type CommandStatus } from '@dts/domain';
import { DataSource } from 'typeorm';
import { LiveBus } from '../live/live-bus';
import { returningRows } from './sql-results';

export interface CommandRow {
  uid: number;
  device_id: number;
  eui: string;
  created_at: Date;
  status: CommandStatus;
  network: string | null;
  network_ref: number | null;
  confirmed: boolean;
  port: number;
  payload: Buffer;
  network_id: string | null;
  reason: string | null;
}

/** What the worker needs to hand a command to its network. */
export interface DispatchRow extends CommandRow {
  owner_id: number;
  adapter: 'simulated' | 'ttn' | 'chirpstack' | 'rest' | null;
  base_url: string | null;
  api_key_encrypted: Buffer | null;
  application_id: string | null;
  webhook_id: string | null;
}

export interface NewCommand {
  deviceUid: number;
  createdBy: number;
  networkRef: number | null;
  confirmed: boolean;
  port: number;
  payload: Uint8Array;
  name: string | null;
  params: Record<string, unknown> | null;
}

const SELECT = `SELECT c.uid, c.device_id, d.eui, c.created_at, c.status, n.name AS network, c.network_ref, c.confirmed, c.port, c.payload, c.network_id, c.reason
  FROM commands c JOIN devices d ON d.uid = c.device_id LEFT JOIN networks n ON n.uid = c.network_ref`;

/** SQL of "the new status ranks above the stored one, which is not final": statuses never go back. */
const ADVANCES = `(CASE c.status ${Object.entries(COMMAND_STATUS_RANK).map(([s, r]) => `WHEN '${s}' THEN ${r}`).join(' ')} END) < $RANK AND c.status NOT IN ('Acknowledged', 'Failed', 'Cancelled')`;

/** What creating a command for a device needs: its encoder (decoder family or codec) and network. */
export interface CommandTarget {
  decoder: { uid: number; name: string; script: string | null } | null;
  networkRef: number | null;
  adapter: DispatchRow['adapter'];
}

@Injectable()
export class CommandsRepository {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly live: LiveBus,
  ) {}

  /** Every status change (creation included) is announced here, in whichever app made it, after it is stored. */
  private announce(deviceUid: number, command: number): Promise<void> {
    return this.live.publish([{ kind: 'command', device: deviceUid, command }]);
  }

  async target(deviceUid: number): Promise<CommandTarget> {
    const [r]: { decoder_uid: number | null; decoder_name: string | null; script: string | null; network_ref: number | null; adapter: DispatchRow['adapter'] }[] = await this.ds.query(
      `SELECT c.uid AS decoder_uid, c.name AS decoder_name, c.script, d.network_ref, n.adapter
       FROM devices d LEFT JOIN decoders c ON c.uid = d.decoder_ref LEFT JOIN networks n ON n.uid = d.network_ref WHERE d.uid = $1`,
      [deviceUid],
    );
    return {
      decoder: r.decoder_uid === null ? null : { uid: r.decoder_uid, name: r.decoder_name!, script: r.script },
      networkRef: r.network_ref,
      adapter: r.adapter,
    };
  }

  async create(input: NewCommand): Promise<CommandRow> {
    const [{ uid }] = await returningRows<{ uid: number }>(
      this.ds,
      `INSERT INTO commands (device_id, created_by, status, network_ref, confirmed, port, payload, name, params)
       VALUES ($1, $2, 'Created', $3, $4, $5, $6, $7, $8) RETURNING uid`,
      [input.deviceUid, input.createdBy, input.networkRef, input.confirmed, input.port, Buffer.from(input.payload), input.name, input.params === null ? null : JSON.stringify(input.params)],
    );
    await this.announce(input.deviceUid, uid);
    return (await this.find(uid))!;
  }

  async find(uid: number): Promise<CommandRow | null> {
    const rows: CommandRow[] = await this.ds.query(`${SELECT} WHERE c.uid = $1`, [uid]);
    return rows[0] ?? null;
  }

  /** The device's commands, newest first. */
  list(deviceUid: number): Promise<CommandRow[]> {
    return this.ds.query(`${SELECT} WHERE c.device_id = $1 ORDER BY c.created_at DESC, c.uid DESC`, [deviceUid]);
  }

  async forDispatch(uid: number): Promise<DispatchRow | null> {
    const rows: DispatchRow[] = await this.ds.query(
      `SELECT c.uid, c.device_id, d.eui, c.created_at, c.status, n.name AS network, c.network_ref, c.confirmed, c.port, c.payload, c.network_id, c.reason,
              d.owner_id, n.adapter, n.base_url, n.api_key_encrypted, n.application_id, n.webhook_id
       FROM commands c JOIN devices d ON d.uid = c.device_id LEFT JOIN networks n ON n.uid = c.network_ref
       WHERE c.uid = $1 AND d.deleted_at IS NULL`,
      [uid],
    );
    return rows[0] ?? null;
  }

  /**
   * Moves the command to `status` when that is a step forward; returns whether it moved. Scheduled
   * also records the network's id of the queued downlink.
   */
  async advance(uid: number, status: CommandStatus, extra: { networkId?: string | null; reason?: string | null } = {}): Promise<boolean> {
    const rows = await returningRows<{ device_id: number }>(
      this.ds,
      `UPDATE commands c SET status = $2, updated_at = now(),
              network_id = coalesce($3, c.network_id), reason = coalesce($4, c.reason)
       WHERE c.uid = $1 AND ${ADVANCES.replace('$RANK', '$5')}
       RETURNING c.device_id`,
      [uid, status, extra.networkId ?? null, extra.reason ?? null, COMMAND_STATUS_RANK[status]],
    );
    if (rows.length > 0) await this.announce(rows[0].device_id, uid);
    return rows.length > 0;
  }

  /** Cancels a command still Created; false when it has moved on (or does not exist). */
  async cancel(uid: number, deviceUid: number): Promise<boolean> {
    const cancelled = (await returningRows(this.ds, `UPDATE commands SET status = 'Cancelled', updated_at = now() WHERE uid = $1 AND device_id = $2 AND status = 'Created' RETURNING 1`, [uid, deviceUid])).length > 0;
    if (cancelled) await this.announce(deviceUid, uid);
    return cancelled;
  }

  /** A network event names the command by the network's id (ChirpStack) or by our uid (The Things Stack). */
  async findForEvent(by: { networkId: string } | { uid: number }, ownerId: number | null): Promise<number | null> {
    const [where, value] = 'networkId' in by ? ['c.network_id = $1', by.networkId] : ['c.uid = $1', by.uid];
    const rows: { uid: number }[] = await this.ds.query(
      `SELECT c.uid FROM commands c JOIN devices d ON d.uid = c.device_id WHERE ${where} AND ($2::int IS NULL OR d.owner_id = $2) ORDER BY c.uid DESC LIMIT 1`,
      [value, ownerId],
    );
    return rows[0]?.uid ?? null;
  }

  /** Commands still Created after `seconds`: their dispatch job may have been lost. */
  async stuck(seconds: number, limit: number): Promise<number[]> {
    const rows: { uid: number }[] = await this.ds.query(
      `SELECT uid FROM commands WHERE status = 'Created' AND created_at < now() - $1 * interval '1 second' ORDER BY created_at LIMIT $2`,
      [seconds, limit],
    );
    return rows.map((r) => r.uid);
  }

  async statusCounts(): Promise<Record<string, number>> {
    const rows: { status: string; n: number }[] = await this.ds.query('SELECT status, count(*)::int AS n FROM commands GROUP BY status');
    return Object.fromEntries(rows.map((r) => [r.status, r.n]));
  }
}
