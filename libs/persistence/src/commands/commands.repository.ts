import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { COMMAND_STATUS_RANK, type CommandStatus, isWaiting, type QueueRemoval, SIMULATED } from '@dts/domain';
import { DataSource } from 'typeorm';
import { LiveBus } from '../live/live-bus';
import { onlyRow, queryOne, returningRows } from '../sql/sql-results';
import { statement, Statements } from '../sql/statements';

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
  /** The network's kind (its definition: networkByKind in libs/domain). */
  adapter: string | null;
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

/** The query of a DispatchRow (add the WHERE). */
const DISPATCH_SELECT = `SELECT c.uid, c.device_id, d.eui, c.created_at, c.status, n.name AS network, c.network_ref, c.confirmed, c.port, c.payload,
              c.network_id, c.reason, d.owner_id, n.adapter, n.base_url, n.api_key_encrypted, n.application_id, n.webhook_id
       FROM commands c JOIN devices d ON d.uid = c.device_id LEFT JOIN networks n ON n.uid = c.network_ref`;

/** The query of a CommandRow (add the WHERE): the event router reads commands by uid. */
export const COMMAND_ROW_QUERY = SELECT;

/** SQL of "the new status ranks above the stored one, which is not final": statuses never go back. */
const ADVANCES = `(CASE c.status ${Object.entries(COMMAND_STATUS_RANK)
  .map(([s, r]) => `WHEN '${s}' THEN ${r}`)
  .join(' ')} END) < $RANK AND c.status NOT IN ('Acknowledged', 'Failed', 'Cancelled')`;

/** What creating a command for a device needs: its encoder (decoder family or codec) and network. */
export interface CommandTarget {
  decoder: { uid: number; name: string; script: string | null } | null;
  networkRef: number | null;
  adapter: DispatchRow['adapter'];
}

/** A command by uid: each one created, and each one a route reads. */
const BY_UID = statement('command_by_uid', `${SELECT} WHERE c.uid = $1`);

/** CommandsRepository.list's page, one statement for any status and one for waiting ones only (see there). */
const listOf = (name: string, waitingOnly: boolean) =>
  statement(
    name,
    `${SELECT}
     WHERE c.device_id = $1 AND ($2::text[] IS NULL OR c.status = ANY($2::text[]))
       ${waitingOnly ? `AND c.status IN ('Created', 'Scheduled')` : ''}
       AND ($3::bigint IS NULL OR (c.created_at, c.uid) < (SELECT b.created_at, b.uid FROM commands b WHERE b.uid = $3::bigint AND b.device_id = $1))
     ORDER BY c.created_at DESC, c.uid DESC LIMIT $4`,
  );
const LIST = { any: listOf('commands_page', false), waiting: listOf('commands_page_waiting', true) };

@Injectable()
export class CommandsRepository {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly live: LiveBus,
    private readonly statements: Statements,
  ) {}

  /** Every status change (creation included) is announced here, in whichever app made it, after it is stored. */
  private announce(deviceUid: number, command: number): Promise<void> {
    return this.live.publish([{ kind: 'command', device: deviceUid, command }]);
  }

  async target(deviceUid: number): Promise<CommandTarget> {
    // The caller holds the device (DeviceAccessService): its row is there.
    const r = await queryOne<{
      decoder_uid: number | null;
      decoder_name: string | null;
      script: string | null;
      network_ref: number | null;
      adapter: DispatchRow['adapter'];
    }>(
      this.ds,
      `SELECT c.uid AS decoder_uid, c.name AS decoder_name, c.script, d.network_ref, n.adapter
       FROM devices d LEFT JOIN decoders c ON c.uid = d.decoder_ref LEFT JOIN networks n ON n.uid = d.network_ref WHERE d.uid = $1`,
      [deviceUid],
    );
    return {
      decoder: r.decoder_uid === null ? null : { uid: r.decoder_uid, name: r.decoder_name ?? '', script: r.script },
      networkRef: r.network_ref,
      adapter: r.adapter,
    };
  }

  async create(input: NewCommand): Promise<CommandRow> {
    const { uid } = onlyRow(
      await returningRows<{ uid: number }>(
        this.ds,
        `INSERT INTO commands (device_id, created_by, status, network_ref, confirmed, port, payload, name, params)
       VALUES ($1, $2, 'Created', $3, $4, $5, $6, $7, $8) RETURNING uid`,
        [
          input.deviceUid,
          input.createdBy,
          input.networkRef,
          input.confirmed,
          input.port,
          Buffer.from(input.payload),
          input.name,
          input.params === null ? null : JSON.stringify(input.params),
        ],
      ),
    );
    await this.announce(input.deviceUid, uid);
    const row = await this.find(uid);
    // Only the device's purge deletes commands, and it runs after the device is gone from every route.
    if (!row) throw new Error(`command ${uid} vanished right after it was stored`);
    return row;
  }

  async find(uid: number): Promise<CommandRow | null> {
    const rows = await this.statements.rows<CommandRow>(BY_UID, [uid]);
    return rows[0] ?? null;
  }

  /**
   * The device's commands, newest first, in keyset pages: `before` is the last uid of the previous
   * page (a uid that is not the device's lists nothing). The order is the creation time's, the uid
   * breaking ties, so the keyset compares both. commands_device_idx serves it; asked for waiting
   * ones only, the query says so in its text, so that the partial commands_waiting serves it
   * instead of a walk through every command the device has sent.
   */
  list(deviceUid: number, q: { statuses: readonly CommandStatus[] | null; before: string | null; limit: number }): Promise<CommandRow[]> {
    const waitingOnly = q.statuses !== null && q.statuses.every(isWaiting);
    return this.statements.rows<CommandRow>(waitingOnly ? LIST.waiting : LIST.any, [deviceUid, q.statuses, q.before, q.limit]);
  }

  async forDispatch(uid: number): Promise<DispatchRow | null> {
    const rows: DispatchRow[] = await this.ds.query(`${DISPATCH_SELECT} WHERE c.uid = $1 AND d.deleted_at IS NULL`, [uid]);
    return rows[0] ?? null;
  }

  /** The device's commands that have not reached the device yet (Created, Scheduled), oldest first, with their networks. */
  pendingOf(deviceUid: number): Promise<DispatchRow[]> {
    return this.ds.query(`${DISPATCH_SELECT} WHERE c.device_id = $1 AND c.status IN ('Created', 'Scheduled') ORDER BY c.created_at, c.uid`, [deviceUid]);
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
    const [moved] = rows;
    if (moved) await this.announce(moved.device_id, uid);
    return moved !== undefined;
  }

  /**
   * Cancels a command still in one of `from` (Created: not handed to a network; Scheduled: taken out
   * of the network's queue, or the simulated network's); false when it has moved on (or does not exist).
   */
  async cancel(uid: number, deviceUid: number, from: readonly ('Created' | 'Scheduled')[] = ['Created']): Promise<boolean> {
    const cancelled =
      (
        await returningRows(
          this.ds,
          `UPDATE commands SET status = 'Cancelled', updated_at = now() WHERE uid = $1 AND device_id = $2 AND status = ANY($3::text[]) RETURNING 1`,
          [uid, deviceUid, from],
        )
      ).length > 0;
    if (cancelled) await this.announce(deviceUid, uid);
    return cancelled;
  }

  /**
   * What taking downlinks out of a network's queue did to the device's other downlinks there: the
   * ones the network names anew follow their new ids (their events name those), the ones it lost
   * fail with the reason.
   */
  async afterQueueRemoval(deviceUid: number, networkRef: number | null, outcome: Pick<QueueRemoval, 'renamed' | 'lost'>): Promise<void> {
    if (outcome.renamed.length > 0) {
      await this.ds.query(
        `UPDATE commands c SET network_id = v.to_id, updated_at = now() FROM unnest($3::text[], $4::text[]) AS v(from_id, to_id)
         WHERE c.device_id = $1 AND c.network_ref IS NOT DISTINCT FROM $2 AND c.network_id = v.from_id`,
        [deviceUid, networkRef, outcome.renamed.map((r) => r.from), outcome.renamed.map((r) => r.to)],
      );
    }
    for (const lost of outcome.lost) {
      const rows: { uid: number }[] = await this.ds.query(
        `SELECT uid FROM commands WHERE device_id = $1 AND network_ref IS NOT DISTINCT FROM $2 AND network_id = $3`,
        [deviceUid, networkRef, lost.id],
      );
      for (const { uid } of rows) await this.advance(uid, 'Failed', { reason: lost.reason });
    }
  }

  /**
   * The simulated network at its devices' new uplinks (docs/api.md §6): for each device, a confirmed
   * downlink sent at an earlier uplink is acknowledged by this one, and the oldest queued one
   * (Scheduled) goes out (Sent), as a class A device receives one downlink after each uplink. Two
   * deliveries at once for one device move one downlink, not two (the row is re-checked once
   * locked). Answers how many commands moved.
   */
  async simulatedUplinks(deviceUids: readonly number[]): Promise<number> {
    if (deviceUids.length === 0) return 0;
    const moved = await returningRows<{ uid: number; device_id: number }>(
      this.ds,
      `WITH acknowledged AS (
         UPDATE commands c SET status = 'Acknowledged', updated_at = now()
         WHERE c.device_id = ANY($1::int[]) AND c.network_ref = ${SIMULATED.uid} AND c.status = 'Sent' AND c.confirmed
         RETURNING c.uid, c.device_id
       ),
       head AS (
         SELECT DISTINCT ON (device_id) uid FROM commands
         WHERE device_id = ANY($1::int[]) AND network_ref = ${SIMULATED.uid} AND status = 'Scheduled'
         ORDER BY device_id, created_at, uid
       ),
       sent AS (
         UPDATE commands c SET status = 'Sent', updated_at = now() FROM head
         WHERE c.uid = head.uid AND c.status = 'Scheduled'
         RETURNING c.uid, c.device_id
       )
       SELECT uid, device_id FROM acknowledged UNION ALL SELECT uid, device_id FROM sent`,
      [deviceUids],
    );
    for (const m of moved) await this.announce(m.device_id, m.uid);
    return moved.length;
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
