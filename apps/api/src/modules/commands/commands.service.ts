import { Injectable } from '@nestjs/common';
import {
  checkParams,
  commandDispatchJobId,
  commandsFor,
  type CommandWire,
  type Eui,
  MAX_LORAWAN_PAYLOAD_BYTES,
  rawCommandBytes,
} from '@dts/domain';
import { type CommandTarget, CommandsRepository } from '@dts/persistence';
import { CodecSandbox, JobQueue } from '@dts/platform';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { ApiException } from '../../common/http/api.exception';
import { DeviceAccessService } from '../devices/device-access.service';
import { toCommandWire } from './command.mapper';
import type { AvailableCommandResponse } from './dto/command.responses';
import type { CreateCommandDto } from './dto/create-command.dto';

/** The port a codec's downlink goes out on when the codec does not say. */
const CODEC_DEFAULT_PORT = 1;
/** How long POST command waits for its dispatch job to be queued (see create). */
const ENQUEUE_WAIT_MS = 2_000;

@Injectable()
export class CommandsService {
  constructor(
    private readonly access: DeviceAccessService,
    private readonly commands: CommandsRepository,
    private readonly sandbox: CodecSandbox,
    private readonly jobs: JobQueue,
  ) {}

  async list(principal: AuthPrincipal, eui: Eui): Promise<CommandWire[]> {
    const device = await this.access.require(principal, eui);
    return (await this.commands.list(device.uid)).map(toCommandWire);
  }

  async available(principal: AuthPrincipal, eui: Eui): Promise<AvailableCommandResponse[]> {
    const device = await this.access.require(principal, eui);
    const target = await this.commands.target(device.uid);
    if (target.decoder?.script) {
      return [{ name: '(any)', description: 'Any command name; the device’s codec (encodeDownlink) encodes {command, ...params}.', port: null, params: {} }];
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
    if (target.adapter === 'rest' || target.adapter === null) {
      throw ApiException.validation('eui', target.adapter === null ? 'the device has no network to send through' : 'the device’s network takes no downlinks');
    }
    const { port, payload, name, params } = dto.command !== undefined ? this.named(dto, target) : this.raw(dto);
    const row = await this.commands.create({
      deviceUid: device.uid,
      createdBy: principal.accountId,
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

  async cancel(principal: AuthPrincipal, eui: Eui, uid: number): Promise<{ uid: number; status: 'Cancelled' }> {
    const device = await this.access.require(principal, eui);
    const command = await this.commands.find(uid);
    if (!command || command.device_id !== device.uid) throw ApiException.notFound('command', 'uid');
    if (!(await this.commands.cancel(uid, device.uid))) throw ApiException.of('COMMAND_NOT_CANCELLABLE', `the command is ${(await this.commands.find(uid))?.status ?? command.status}, not Created`, 'uid');
    return { uid, status: 'Cancelled' };
  }

  private raw(dto: CreateCommandDto) {
    if (dto.params !== undefined) throw ApiException.validation('params', 'params go with command, not with a raw payload');
    if (dto.port === undefined) throw ApiException.validation('port', 'port is required (1-223)');
    const bytes = rawCommandBytes(dto);
    if (!(bytes instanceof Uint8Array)) throw ApiException.validation(bytes.field, bytes.message);
    return { port: dto.port, payload: bytes, name: null, params: null };
  }

  private named(dto: CreateCommandDto, target: CommandTarget) {
    for (const field of ['port', 'payload_hex', 'payload_base64', 'payload_ASCII'] as const) {
      if (dto[field] !== undefined) throw ApiException.validation(field, `${field} goes with a raw command, not with command`);
    }
    const name = dto.command!;
    if (target.decoder?.script) {
      const encoded = this.sandbox.encode(`decoder-${target.decoder.uid}`, target.decoder.script, { command: name, ...(dto.params ?? {}) });
      if (typeof encoded === 'string') throw ApiException.validation('command', encoded);
      if (encoded.bytes.length === 0 || encoded.bytes.length > MAX_LORAWAN_PAYLOAD_BYTES) throw ApiException.validation('command', `the codec encoded ${encoded.bytes.length} bytes`);
      return { port: encoded.fPort ?? CODEC_DEFAULT_PORT, payload: encoded.bytes, name, params: dto.params ?? null };
    }
    const spec = commandsFor(target.decoder?.name ?? null).find((c) => c.name === name);
    if (!spec) throw ApiException.validation('command', `the device offers no command "${name}" (see …/available)`);
    const params = checkParams(spec, dto.params);
    if ('field' in params && typeof params.field === 'string' && 'message' in params) throw ApiException.validation(params.field, String(params.message));
    return { port: spec.port, payload: spec.encode(params as Record<string, number | boolean>), name, params: params as Record<string, unknown> };
  }
}
