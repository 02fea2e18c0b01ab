import { Inject, Injectable } from '@nestjs/common';
import { type CodecExample, type DecodeResult, decoderByName, NO_MEASUREMENTS, rawDecoder } from '@dts/domain';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { CodecBudget } from './codec-budget';
import { CodecPool } from './codec-pool';
import type { CodecTrial } from './codec-limits';

/** The decoder of a device: a built-in one by name, or an account's own codec script. */
export interface DecoderRef {
  uid: number;
  name: string;
  script: string | null;
}

/** One payload to decode, with the account whose codec time it spends (the device's owner). */
export interface DecodeItem {
  accountId: number;
  decoder: DecoderRef | null;
  payload: Uint8Array;
  port: number;
}

/** Items of one account sent to a codec thread at a time: other accounts' work interleaves between. */
const CHUNK = 50;
/** Built-in decoders run on the event loop (fixed code, at most 242 bytes): it yields this often. */
const INLINE_SLICE = 200;

/**
 * Trials (a draft script, a codec's examples) one account may have on the codec threads at once:
 * more are refused, not queued, so an account cannot fill the threads' queue with them.
 */
export const TRIALS_PER_ACCOUNT = 2;

export type TrialOutcome = { ok: true; trial: CodecTrial } | { ok: false; reason: 'busy' | 'budget'; message: string; retryAfterS: number };

const notRun = (why: string): DecodeResult => ({ decoded: {}, valid: false, error: `codec not run: ${why}`, measurements: { ...NO_MEASUREMENTS } });

/**
 * Decodes payloads for ingestion, re-decoding and tests alike. Built-in decoders run in place;
 * an account's codec runs on the codec threads (CodecPool) within two CPU budgets: per call of
 * decodeMany (one delivery, one re-decode batch) and per account per minute. Past either, the
 * account's remaining items are not decoded and say why (`payload_valid: false`); other accounts'
 * items go on. A decoder this build does not implement decodes nothing and says why.
 */
@Injectable()
export class DecodingService {
  private readonly budget: CodecBudget;
  private readonly trials = new Map<number, number>();

  constructor(
    private readonly pool: CodecPool,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.budget = new CodecBudget(config.codecs.cpuMsPerMinute);
  }

  /**
   * Runs a draft script for an account (POST /user/codec/try; a codec's examples at import or
   * edit) on the codec threads, within the same budgets as its uplinks: at most
   * CODEC_CPU_MS_PER_DELIVERY for this request and what is left of the account's minute, charged
   * as spent. Refused when the account has TRIALS_PER_ACCOUNT running or its minute is spent.
   */
  async trial(accountId: number, script: string, payload: { bytes: Uint8Array; fPort: number } | null, examples: CodecExample[]): Promise<TrialOutcome> {
    const running = this.trials.get(accountId) ?? 0;
    if (running >= TRIALS_PER_ACCOUNT)
      return { ok: false, reason: 'busy', message: `at most ${TRIALS_PER_ACCOUNT} codec trials of an account run at once`, retryAfterS: 1 };
    const left = Math.min(this.config.codecs.cpuMsPerDelivery, this.budget.remaining(accountId));
    if (left <= 0)
      return {
        ok: false,
        reason: 'budget',
        message: `the account spent its codec CPU budget of ${this.config.codecs.cpuMsPerMinute} ms for this minute`,
        retryAfterS: Math.ceil(this.budget.untilNextMinuteMs() / 1000),
      };
    this.trials.set(accountId, running + 1);
    try {
      const trial = await this.pool.trial(script, payload, examples, left);
      this.budget.charge(accountId, trial.usedMs);
      return { ok: true, trial };
    } finally {
      const now = (this.trials.get(accountId) ?? 1) - 1;
      if (now > 0) this.trials.set(accountId, now);
      else this.trials.delete(accountId);
    }
  }

  async decodeOne(item: DecodeItem): Promise<DecodeResult> {
    const [result] = await this.decodeMany([item]);
    if (!result) throw new Error('decodeMany answered no result for one item');
    return result;
  }

  /** One result per item, in order. */
  async decodeMany(items: DecodeItem[]): Promise<DecodeResult[]> {
    const results = new Array<DecodeResult>(items.length);
    const byAccount = new Map<number, number[]>();
    for (const [index, item] of items.entries()) {
      if (item.decoder?.script == null) continue;
      const list = byAccount.get(item.accountId) ?? [];
      list.push(index);
      byAccount.set(item.accountId, list);
    }
    const scripted = [...byAccount.entries()].map(([accountId, indexes]) => this.runCodecs(accountId, indexes, items, results));
    for (let start = 0; start < items.length; start += INLINE_SLICE) {
      if (start > 0) await new Promise((resolve) => setImmediate(resolve));
      for (let i = start; i < Math.min(items.length, start + INLINE_SLICE); i++) {
        const item = items[i];
        if (item && item.decoder?.script == null) results[i] = builtIn(item.decoder, item.payload, item.port);
      }
    }
    await Promise.all(scripted);
    return results;
  }

  /** One account's codec items, a chunk at a time, within this call's and the minute's budget. */
  private async runCodecs(accountId: number, indexes: number[], items: DecodeItem[], results: DecodeResult[]): Promise<void> {
    const { cpuMsPerDelivery, cpuMsPerMinute } = this.config.codecs;
    const mine = indexes.flatMap((index) => {
      const item = items[index];
      return item?.decoder?.script != null ? [{ index, item, decoder: item.decoder, script: item.decoder.script }] : [];
    });
    let spent = 0;
    let at = 0;
    while (at < mine.length) {
      const first = mine[at]!;
      const chunk: typeof mine = [];
      for (let next = mine[at]; next && chunk.length < CHUNK && sameCodec(next.decoder, first.decoder); next = mine[++at]) chunk.push(next);
      const left = Math.min(cpuMsPerDelivery - spent, this.budget.remaining(accountId));
      if (left <= 0) {
        const why =
          spent >= cpuMsPerDelivery
            ? `this delivery spent its codec CPU budget of ${cpuMsPerDelivery} ms`
            : `the account spent its codec CPU budget of ${cpuMsPerMinute} ms for this minute`;
        for (const { index } of [...chunk, ...mine.slice(at)]) results[index] = notRun(why);
        return;
      }
      const { results: decoded, usedMs } = await this.pool.decode(
        `decoder-${first.decoder.uid}`,
        first.script,
        chunk.map(({ item }) => ({ payload: item.payload, port: item.port })),
        left,
      );
      spent += usedMs;
      this.budget.charge(accountId, usedMs);
      // The thread stops once the budget is spent: the undecoded items are the chunk's tail. They
      // go round again, and the next pass, with nothing left, names the budget that ran out.
      let undone = 0;
      for (const [k, { index }] of chunk.entries()) {
        const result = decoded[k];
        if (result) results[index] = result;
        else undone++;
      }
      at -= undone;
    }
  }
}

const sameCodec = (a: DecoderRef, b: DecoderRef) => a.uid === b.uid && a.script === b.script;

function builtIn(decoder: DecoderRef | null, payload: Uint8Array, port: number): DecodeResult {
  if (decoder === null) return rawDecoder(payload, port);
  const decode = decoderByName(decoder.name);
  if (!decode) return { ...rawDecoder(payload, port), valid: false, error: `decoder "${decoder.name}" is not available` };
  return decode(payload, port);
}
