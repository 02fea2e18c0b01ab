import { Inject, Injectable } from '@nestjs/common';
import {
  base64ToBytes,
  type CodecExample,
  type CodecExampleResult,
  type CodecExampleWire,
  type CodecLimitsWire,
  type CodecTryWire,
  type CodecWire,
  hexToBytes,
  MAX_LORAWAN_PAYLOAD_BYTES,
  payloadProblems,
} from '@dts/domain';
import { CodecsRepository, type CodecRow } from '@dts/persistence';
import { APP_CONFIG, type AppConfig, CODEC_LIMITS, CodecPool, type CodecTrial, DecodingService, JobQueue, loadDeadlineMs } from '@dts/platform';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { ApiException } from '../../common/http/api.exception';
import { readRepositoryCodec } from './device-repository-codec';
import type { CreateCodecDto, ImportCodecDto, TryCodecDto, UpdateCodecDto } from './dto/codec.dto';

/** Codecs one account may hold: each is up to 512 KiB, run and listed with its examples. */
export const MAX_CODECS_PER_ACCOUNT = 100;

const toCodec = (row: CodecRow): CodecWire => ({
  uid: row.uid,
  name: row.name,
  description: row.description,
  script: row.script,
  examples: row.examples,
  updated_unix: Number(row.updated_unix),
});

/** Examples with the results of a trial (null where the budget left one unrun). */
const withResults = (examples: readonly CodecExample[], results: readonly (CodecExampleResult | null)[]): CodecExampleWire[] =>
  examples.map((example, i) => ({ ...example, result: results[i] ?? null }));

/** An account's own decoders: vendor codec scripts, usable as any of its devices' decoder_ref (docs/api.md §13). */
@Injectable()
export class CodecsService {
  constructor(
    private readonly repo: CodecsRepository,
    private readonly codecs: CodecPool,
    private readonly decoding: DecodingService,
    private readonly jobs: JobQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(principal: AuthPrincipal): Promise<CodecWire[]> {
    return (await this.repo.list(principal.accountId)).map(toCodec);
  }

  async get(principal: AuthPrincipal, uid: number): Promise<CodecWire> {
    const row = await this.repo.get(principal.accountId, uid);
    if (!row) throw ApiException.notFound('codec', 'uid');
    return toCodec(row);
  }

  async create(principal: AuthPrincipal, dto: CreateCodecDto): Promise<CodecWire> {
    await this.roomFor(principal);
    // Loaded on a codec thread: a script whose top level loops costs that thread, not the event loop.
    const problem = await this.codecs.check(dto.script);
    if (problem) throw ApiException.validation('script', problem);
    return this.store(principal, { name: dto.name, description: dto.description ?? '', script: dto.script, examples: [] });
  }

  /**
   * A codec in the device repository's layout: the YAML's scripts assembled into one, checked and
   * its examples run on a codec thread within the account's codec budget, stored with their results.
   */
  async import(principal: AuthPrincipal, dto: ImportCodecDto): Promise<CodecWire> {
    await this.roomFor(principal);
    const read = await readRepositoryCodec(dto.yaml, dto.files);
    if (Array.isArray(read)) throw new ApiException(read.map((p) => ({ code: 'VALIDATION_FAILED' as const, message: p.message, field: p.field })));
    const trial = await this.trial(principal, read.script, null, read.examples);
    if (trial.problem) throw ApiException.validation('files', trial.problem);
    return this.store(principal, {
      name: dto.name,
      description: dto.description ?? '',
      script: read.script,
      examples: withResults(read.examples, trial.examples),
    });
  }

  /**
   * Changes a codec. A new script is checked and runs the codec's examples again, and the devices
   * that decode with the codec have their history decoded again with it (device.redecode).
   */
  async update(principal: AuthPrincipal, uid: number, dto: UpdateCodecDto): Promise<CodecWire> {
    if (dto.name === undefined && dto.description === undefined && dto.script === undefined)
      throw ApiException.validation('body', 'name, description or script is required');
    const current = await this.repo.get(principal.accountId, uid);
    if (!current) throw ApiException.notFound('codec', 'uid');
    const scriptChanged = dto.script !== undefined && dto.script !== current.script;
    let examples: CodecExampleWire[] | undefined;
    if (scriptChanged) {
      const plain = current.examples.map(({ result: _result, ...example }) => example);
      const trial = await this.trial(principal, dto.script!, null, plain);
      if (trial.problem) throw ApiException.validation('script', trial.problem);
      examples = withResults(plain, trial.examples);
    }
    const result = await this.repo.update(principal.accountId, uid, {
      name: dto.name,
      description: dto.description,
      script: scriptChanged ? dto.script : undefined,
      examples,
    });
    if (!result.ok)
      throw result.reason === 'not-found' ? ApiException.notFound('codec', 'uid') : ApiException.validation('name', 'a decoder of this name exists');
    if (scriptChanged) {
      const devices = await this.repo.deviceUids(uid);
      await this.jobs.enqueueMany(
        'device.redecode',
        devices.map((deviceUid) => ({ deviceUid, decoderRef: uid })),
      );
    }
    return toCodec(result.row);
  }

  /** A draft script on given bytes, and/or a stored codec's examples: run like any codec, nothing stored. */
  async try(principal: AuthPrincipal, dto: TryCodecDto): Promise<CodecTryWire> {
    const payload = this.payloadOf(dto);
    let examples: CodecExample[] = [];
    if (dto.examples_of !== undefined) {
      const codec = await this.repo.get(principal.accountId, dto.examples_of);
      if (!codec) throw ApiException.notFound('codec', 'examples_of');
      examples = codec.examples.map(({ result: _result, ...example }) => example);
    }
    if (!payload && dto.examples_of === undefined)
      throw ApiException.validation('payload_hex', 'payload_hex or payload_base64 (with fPort), or examples_of, is required');
    const trial = await this.trial(principal, dto.script, payload, examples);
    const decoded = trial.decoded;
    const problems = decoded ? payloadProblems(decoded.result) : null;
    return {
      problem: trial.problem,
      decoded: decoded
        ? {
            output: decoded.output,
            normalized: decoded.normalized,
            valid: decoded.result.valid,
            error: decoded.result.error,
            payload_decoded: decoded.result.decoded,
            payload_errors: problems?.errors ?? [],
            payload_warnings: problems?.warnings ?? [],
            measurements: { ...decoded.result.measurements },
          }
        : null,
      examples: withResults(examples, trial.examples),
      cpu_ms: Math.round(trial.usedMs * 10) / 10,
      limits: this.limits(dto.script),
    };
  }

  /** Devices that used the codec keep their uplinks and decode nothing from then on (raw). */
  async delete(principal: AuthPrincipal, uid: number): Promise<{ uid: number; deleted: true }> {
    if (!(await this.repo.delete(principal.accountId, uid))) throw ApiException.notFound('codec', 'uid');
    return { uid, deleted: true };
  }

  private limits(script: string): CodecLimitsWire {
    return {
      max_script_bytes: CODEC_LIMITS.maxScriptBytes,
      memory_bytes: CODEC_LIMITS.memoryBytes,
      stack_bytes: CODEC_LIMITS.stackBytes,
      call_ms: CODEC_LIMITS.callMs,
      load_ms: loadDeadlineMs(script),
      cpu_ms_per_request: this.config.codecs.cpuMsPerDelivery,
      cpu_ms_per_minute: this.config.codecs.cpuMsPerMinute,
    };
  }

  private payloadOf(dto: TryCodecDto): { bytes: Uint8Array; fPort: number } | null {
    if (dto.payload_hex !== undefined && dto.payload_base64 !== undefined)
      throw ApiException.validation('payload_base64', 'give payload_hex or payload_base64, not both');
    const text = dto.payload_hex ?? dto.payload_base64;
    if (text === undefined) {
      if (dto.fPort !== undefined) throw ApiException.validation('fPort', 'fPort goes with payload_hex or payload_base64');
      return null;
    }
    const field = dto.payload_hex !== undefined ? 'payload_hex' : 'payload_base64';
    const bytes = dto.payload_hex !== undefined ? hexToBytes(dto.payload_hex) : base64ToBytes(text);
    if (!bytes) throw ApiException.validation(field, `${field} is not ${field === 'payload_hex' ? 'hexadecimal' : 'Base64'}`);
    if (bytes.length > MAX_LORAWAN_PAYLOAD_BYTES) throw ApiException.validation(field, `a LoRaWAN payload has at most ${MAX_LORAWAN_PAYLOAD_BYTES} bytes`);
    if (dto.fPort === undefined) throw ApiException.validation('fPort', 'fPort is required with the bytes');
    return { bytes, fPort: dto.fPort };
  }

  /** A trial within the account's codec budget; refused with 429 and Retry-After when it cannot run. */
  private async trial(
    principal: AuthPrincipal,
    script: string,
    payload: { bytes: Uint8Array; fPort: number } | null,
    examples: CodecExample[],
  ): Promise<CodecTrial> {
    const outcome = await this.decoding.trial(principal.accountId, script, payload, examples);
    if (!outcome.ok) throw new ApiException([{ code: 'RATE_LIMITED', message: outcome.message, field: 'script' }], outcome.retryAfterS);
    return outcome.trial;
  }

  private async roomFor(principal: AuthPrincipal): Promise<void> {
    if ((await this.repo.count(principal.accountId)) >= MAX_CODECS_PER_ACCOUNT)
      throw ApiException.of('LIMIT_REACHED', `an account has at most ${MAX_CODECS_PER_ACCOUNT} codecs`);
  }

  private async store(
    principal: AuthPrincipal,
    codec: { name: string; description: string; script: string; examples: CodecExampleWire[] },
  ): Promise<CodecWire> {
    const row = await this.repo.create(principal.accountId, codec);
    if (!row) throw ApiException.validation('name', 'a decoder of this name exists');
    return toCodec(row);
  }
}
