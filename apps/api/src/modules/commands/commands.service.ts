import { Injectable } from '@nestjs/common';
import {
  checkParams,
  type CommandCancelledWire,
  commandDispatchJobId,
  type CommandsFlushedWire,
  type CommandStatus,
  commandsFor,
  isWaiting,
  type CommandWire,
  type Eui,
  MAX_LORAWAN_PAYLOAD_BYTES,
  networkByKind,
  PermanentDownlinkError,
  type QueueRemoval,
  rawCommandBytes,
} from '@dts/domain';
import { NetworkClient } from '@dts/jobs';
import { type CommandTarget, CommandsRepository, type DispatchRow } from '@dts/persistence';
import { CodecPool, JobQueue } from '@dts/platform';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { ApiException } from '../../common/http/api.exception';
import { DeviceAccessService } from '../devices/device-access.service';
import { toCommandWire } from './command.mapper';
import type { AvailableCommandResponse } from './dto/command.responses';
import type { CommandsQueryDto } from './dto/commands-query.dto';
import type { CreateCommandDto } from './dto/create-command.dto';

/** The port a codec's downlink goes out on when the codec does not say. */
const CODEC_DEFAULT_PORT = 1;
/** Retry-After of a cancellation the network could not be asked about. */
const RETRY_AFTER_SECONDS = 5;

/** What became of one command asked to be cancelled. */
type TakeBack = 'cancelled' | { status: CommandStatus; reason: string; unreachable: boolean };

/** How long POST command waits for its dispatch job to be queued (see create). */
const ENQUEUE_WAIT_MS = 2_000;

@Injectable()
export class CommandsService {
  constructor(
    private readonly access: DeviceAccessService,
    private readonly commands: CommandsRepository,
    private readonly codecs: CodecPool,
    private readonly jobs: JobQueue,
    /** The same way to the network as the dispatch processor's. */
    private readonly network: NetworkClient,
  ) {}

  async list(principal: AuthPrincipal, eui: Eui, q: CommandsQueryDto): Promise<CommandWire[]> {
    const device = await this.access.require(principal, eui);
    const statuses = q.status ? ([...new Set(q.status.split(','))] as CommandStatus[]) : null;
    return (await this.commands.list(device.uid, { statuses, before: q.before ?? null, limit: q.limit ?? 100 })).map(toCommandWire);
  }

  async available(principal: AuthPrincipal, eui: Eui): Promise<AvailableCommandResponse[]> {
    const device = await this.access.require(principal, eui);
    const target = await this.commands.target(device.uid);
    if (target.decoder?.script) {
      return [
        {
          name: '(any)',
          description:
            'Any command name (kept with the command as its label); `params` is the object the device’s codec takes, passed to its encodeDownlink as `data` exactly as sent.',
          port: null,
          params: {},
        },
      ];
    }
    return commandsFor(target.decoder?.name ?? null).map((c) => ({ name: c.name, description: c.description, port: c.port, params: c.params }));
  }

  /**
   * Stores the command (Created) and enqueues its dispatch. Should the process die between the two,
   * the worker's requeue job finds the command and enqueues it: a command is never left without its job.
   */
  async create(principal: AuthPrincipal, eui: Eui, dto: CreateCommandDto): Promise<CommandWire> {
    const device = await this.access.require(principal, eui);
    const target = await this.commands.target(device.uid);
    if (!networkByKind(target.adapter)?.downlink) {
      throw ApiException.validation('eui', target.adapter === null ? 'the device has no network to send through' : 'the device’s network takes no downlinks');
    }
    const { port, payload, name, params } = dto.command !== undefined ? await this.named(dto, target) : this.raw(dto);
    const row = await this.commands.create({
      deviceUid: device.uid,
      // The person who sent it, not the organisation it acts in.
      createdBy: principal.userId,
      networkRef: target.networkRef,
      confirmed: dto.confirmed ?? false,
      port,
      payload,
      name,
      params,
    });
    // The queue's client waits for Redis rather than failing; the caller does not: past the bound the
    // command is answered Created and the add lands when Redis returns, or the requeue job enqueues it.
    const enqueued = this.jobs.enqueue('command.dispatch', { commandUid: row.uid }, { jobId: commandDispatchJobId(row.uid) }).catch(() => undefined);
    let bound: NodeJS.Timeout | undefined;
    await Promise.race([enqueued, new Promise<void>((resolve) => (bound = setTimeout(resolve, ENQUEUE_WAIT_MS)))]);
    clearTimeout(bound);
    return toCommandWire(row);
  }

  /**
   * Cancels one command that has not reached the device (docs/api.md §6): Created (nothing handed
   * over yet), or Scheduled, taken out of its network's queue (the simulated network's is ours).
   * What the device has or may have already (Sent and on) is 409; a network that cannot be asked
   * now is 503 (try again).
   */
  async cancel(principal: AuthPrincipal, eui: Eui, uid: number): Promise<CommandCancelledWire> {
    const device = await this.access.require(principal, eui);
    const command = await this.commands.forDispatch(uid);
    if (!command || command.device_id !== device.uid) throw ApiException.notFound('command', 'uid');
    const [outcome] = (await this.takeBack(device.uid, [command])).values();
    if (outcome === undefined || outcome === 'cancelled') return { uid, status: 'Cancelled' };
    if (outcome.unreachable) throw new ApiException([{ code: 'UNAVAILABLE', message: outcome.reason, field: 'uid' }], RETRY_AFTER_SECONDS);
    throw ApiException.of('COMMAND_NOT_CANCELLABLE', outcome.reason, 'uid');
  }

  /** Cancels every command of the device that has not reached it; says which could not be, and why. */
  async flush(principal: AuthPrincipal, eui: Eui): Promise<CommandsFlushedWire> {
    const device = await this.access.require(principal, eui);
    const outcomes = await this.takeBack(device.uid, await this.commands.pendingOf(device.uid));
    const cancelled: number[] = [];
    const kept: CommandsFlushedWire['kept'] = [];
    for (const [uid, outcome] of outcomes) {
      if (outcome === 'cancelled') cancelled.push(uid);
      else kept.push({ uid, status: outcome.status, reason: outcome.reason });
    }
    return { devEUI: device.eui, cancelled, kept };
  }

  /**
   * Takes commands back, by uid in the given order: Created and the simulated network's ones in the
   * record alone; the others out of their network's queue first, one conversation per network.
   */
  private async takeBack(deviceUid: number, rows: DispatchRow[]): Promise<Map<number, TakeBack>> {
    const outcomes = new Map<number, TakeBack>(rows.map((r) => [r.uid, 'cancelled' as const]));
    const byNetwork = new Map<number | null, DispatchRow[]>();
    for (const listed of rows) {
      let row = listed;
      const viaApi = this.network.networkOf(row)?.downlink?.via === 'api';
      if (!viaApi && isWaiting(row.status)) {
        // The simulated network's queue is the record itself.
        outcomes.set(row.uid, await this.cancelInRecord(deviceUid, row.uid, ['Created', 'Scheduled']));
        continue;
      }
      if (row.status === 'Created') {
        // A hand-off in flight is taken back out of the network's queue by the dispatcher, which finds it Cancelled.
        if (await this.commands.cancel(row.uid, deviceUid, ['Created'])) continue;
        row = (await this.commands.forDispatch(row.uid)) ?? row;
      }
      if (row.status === 'Scheduled' && row.network_id !== null) byNetwork.set(row.network_ref, [...(byNetwork.get(row.network_ref) ?? []), row]);
      else outcomes.set(row.uid, this.kept(row.uid, row.status));
    }
    for (const group of byNetwork.values()) for (const [uid, outcome] of await this.outOfNetworkQueue(deviceUid, group)) outcomes.set(uid, outcome);
    return outcomes;
  }

  /** Takes one network's queued commands of the device out of its queue, then cancels those it took out. */
  private async outOfNetworkQueue(deviceUid: number, rows: DispatchRow[]): Promise<Map<number, TakeBack>> {
    const [first] = rows;
    const outcomes = new Map<number, TakeBack>();
    if (!first) return outcomes;
    const refuse = (reason: string, unreachable = false) => new Map(rows.map((r): [number, TakeBack] => [r.uid, { status: r.status, reason, unreachable }]));
    const ids = new Map(rows.map((r) => [r.network_id ?? '', r]));
    let removal: QueueRemoval;
    try {
      removal = await this.network.remove(first, first.eui, [...ids.keys()]);
    } catch (error) {
      // A PermanentDownlinkError (no API, address or key, a forbidden address, a refused key) will not
      // mend by asking again; anything else may: 503 with Retry-After.
      const permanent = error instanceof PermanentDownlinkError;
      return refuse(`the network's queue could not be changed: ${(error as Error).message}`, !permanent);
    }
    await this.commands.afterQueueRemoval(deviceUid, first.network_ref, removal);
    for (const id of removal.removed) {
      const row = ids.get(id);
      if (row) outcomes.set(row.uid, await this.cancelInRecord(deviceUid, row.uid, ['Scheduled']));
    }
    for (const id of removal.gone) {
      const row = ids.get(id);
      if (row) outcomes.set(row.uid, { status: row.status, reason: 'the network’s queue no longer holds it: it was handed to the device', unreachable: false });
    }
    for (const { id, reason } of removal.refused) {
      const row = ids.get(id);
      if (row) outcomes.set(row.uid, { status: row.status, reason, unreachable: false });
    }
    return outcomes;
  }

  /** Cancels in the record; a command that moved on meanwhile is kept, saying where it is. */
  private async cancelInRecord(deviceUid: number, uid: number, from: ('Created' | 'Scheduled')[]): Promise<TakeBack> {
    if (await this.commands.cancel(uid, deviceUid, from)) return 'cancelled';
    return this.kept(uid, (await this.commands.find(uid))?.status ?? 'Cancelled');
  }

  private kept(uid: number, status: CommandStatus): TakeBack {
    const reason =
      status === 'Sent' || status === 'Acknowledged'
        ? `the command is ${status}: it was already handed to the device`
        : `the command is ${status}: only a command that has not reached the device (Created or Scheduled) can be cancelled`;
    return { status, reason, unreachable: false };
  }

  private raw(dto: CreateCommandDto) {
    if (dto.params !== undefined) throw ApiException.validation('params', 'params go with command, not with a raw payload');
    if (dto.port === undefined) throw ApiException.validation('port', 'port is required (1-223)');
    const bytes = rawCommandBytes(dto);
    if (!(bytes instanceof Uint8Array)) throw ApiException.validation(bytes.field, bytes.message);
    return { port: dto.port, payload: bytes, name: null, params: null };
  }

  private async named(dto: CreateCommandDto, target: CommandTarget) {
    for (const field of ['port', 'payload_hex', 'payload_base64', 'payload_ASCII'] as const) {
      if (dto[field] !== undefined) throw ApiException.validation(field, `${field} goes with a raw command, not with command`);
    }
    const name = dto.command!;
    if (target.decoder?.script) {
      // The codec gets the caller's object exactly as sent, as The Things Stack passes a downlink's
      // decoded payload: a strict vendor encoder (Tektelic's) throws on any member it does not know,
      // and the command's name was one (issue 28). The name stays with the command as its label.
      const encoded = await this.codecs.encode(`decoder-${target.decoder.uid}`, target.decoder.script, dto.params ?? {});
      if (typeof encoded === 'string') throw ApiException.validation('command', encoded);
      if (encoded.bytes.length === 0 || encoded.bytes.length > MAX_LORAWAN_PAYLOAD_BYTES)
        throw ApiException.validation('command', `the codec encoded ${encoded.bytes.length} bytes`);
      return { port: encoded.fPort ?? CODEC_DEFAULT_PORT, payload: encoded.bytes, name, params: dto.params ?? null };
    }
    const spec = commandsFor(target.decoder?.name ?? null).find((c) => c.name === name);
    if (!spec) throw ApiException.validation('command', `the device offers no command "${name}" (see …/available)`);
    const params = checkParams(spec, dto.params);
    if ('field' in params && typeof params.field === 'string' && 'message' in params) throw ApiException.validation(params.field, String(params.message));
    return { port: spec.port, payload: spec.encode(params as Record<string, number | boolean>), name, params: params as Record<string, unknown> };
  }
}
