import type { OnApplicationShutdown } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { RateLimitState } from '@dts/persistence';
import type { SharedCounters } from './shared-counters';

/** Local hits reach the shared store this often. */
export const RATE_LIMIT_SYNC_MS = 100;
/** A key's known count is counted on locally only while it is at most this share of its limit. */
export const LOCAL_SHARE = 0.5;

interface Slot {
  /** The shared count as of the last exchange with the store, this process's own hits included. */
  known: number;
  /** Hits admitted here and not yet sent to the store. */
  pending: number;
  /**
   * Hits on their way to the store: counted until the store's answer (which has them) is learnt,
   * so that a decision or a header in between neither forgets nor repeats them.
   */
  sending: number;
  /** When the window ends (ms since the epoch). */
  expiresAt: number;
  /** When the block ends, 0 when none. */
  blockedUntil: number;
  ttlMs: number;
  limit: number;
  blockMs: number;
  throttler: string;
}

/**
 * The per-account rate limit without a round trip per request (docs/benchmarks.md, figure 4).
 * A key's first hit in a window is counted in the shared store (Redis or PostgreSQL) before it is
 * answered; after that, while the count this process knows (the store's count at its last exchange
 * plus its own hits since) is at most half the limit, hits are counted here and sent to the store
 * every RATE_LIMIT_SYNC_MS, many in one call. Past half the limit, and whenever the window has
 * ended or the key is blocked, each hit is counted in the store before it is answered, as before.
 *
 * So on one instance the limit is exact (every decision near it is the store's), and across N
 * instances a window can pass the limit only by what the other instances admitted locally and have
 * not sent yet: their hits of the last RATE_LIMIT_SYNC_MS, and never more than half the limit each
 * (apps/api/test/multi-instance.e2e-spec.ts checks it). Throttlers other than `batched` (login and
 * friends) always go to the store.
 */
export class BatchedThrottlerStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly slots = new Map<string, Slot>();
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly shared: SharedCounters,
    private readonly batched: ReadonlySet<string>,
  ) {
    this.timer = setInterval(() => void this.flush(), RATE_LIMIT_SYNC_MS);
    this.timer.unref();
  }

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<RateLimitState> {
    if (!this.batched.has(throttlerName)) return this.shared.add(key, 1, ttl, limit, blockDuration, throttlerName);
    const now = Date.now();
    const slot = this.slots.get(key);
    if (slot && now < slot.expiresAt) {
      if (slot.blockedUntil > now) return this.state(slot, now);
      if (slot.known + slot.pending + slot.sending + 1 <= limit * LOCAL_SHARE) {
        slot.pending++;
        return this.state(slot, now);
      }
    }
    // Hits of a window that has ended are not owed to the next one.
    if (slot && now >= slot.expiresAt) slot.pending = 0;
    // In the store before the answer: this hit and whatever this process still owes it.
    const owed = slot?.pending ?? 0;
    if (slot) slot.pending = 0;
    try {
      const state = await this.shared.add(key, owed + 1, ttl, limit, blockDuration, throttlerName);
      this.learn(key, state, { ttlMs: ttl, limit, blockMs: blockDuration, throttler: throttlerName });
      return state;
    } catch (error) {
      if (slot) slot.pending += owed;
      throw error;
    }
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  /** Sends every key's local hits to the store, and learns the shared counts back. */
  flush(): Promise<void> {
    this.flushing ??= this.flushNow().finally(() => (this.flushing = null));
    return this.flushing;
  }

  private async flushNow(): Promise<void> {
    const now = Date.now();
    const sends: Promise<void>[] = [];
    for (const [key, slot] of this.slots) {
      if (slot.pending === 0) {
        if (now >= slot.expiresAt && now >= slot.blockedUntil) this.slots.delete(key);
        continue;
      }
      const amount = slot.pending;
      slot.pending = 0;
      slot.sending += amount;
      sends.push(
        this.shared.add(key, amount, slot.ttlMs, slot.limit, slot.blockMs, slot.throttler).then(
          (state) => {
            slot.sending -= amount;
            this.learn(key, state, slot);
          },
          // The store is unreachable: the hits are owed still, and the next request that needs the
          // store meets the error itself.
          () => {
            slot.sending -= amount;
            slot.pending += amount;
          },
        ),
      );
    }
    await Promise.all(sends);
  }

  private learn(key: string, state: RateLimitState, settings: Pick<Slot, 'ttlMs' | 'limit' | 'blockMs' | 'throttler'>): void {
    const now = Date.now();
    const slot = this.slots.get(key);
    const expiresAt = now + state.expiresInMs;
    const blockedUntil = state.isBlocked ? now + state.timeToBlockExpire * 1000 : 0;
    if (slot) {
      // Exchanges in flight together may answer out of order: in the same window the higher count is the newer.
      const sameWindow = now < slot.expiresAt && Math.abs(slot.expiresAt - expiresAt) < 1_000;
      slot.known = sameWindow ? Math.max(slot.known, state.totalHits) : state.totalHits;
      slot.expiresAt = expiresAt;
      slot.blockedUntil = blockedUntil;
      Object.assign(slot, settings);
    } else {
      this.slots.set(key, { known: state.totalHits, pending: 0, sending: 0, expiresAt, blockedUntil, ...settings });
    }
  }

  /** What the throttler guard makes of a local decision: headers and, when blocked, the refusal. */
  private state(slot: Slot, now: number): RateLimitState {
    const blocked = slot.blockedUntil > now;
    return {
      totalHits: slot.known + slot.pending + slot.sending,
      timeToExpire: Math.max(0, Math.ceil((slot.expiresAt - now) / 1000)),
      isBlocked: blocked,
      timeToBlockExpire: blocked ? Math.ceil((slot.blockedUntil - now) / 1000) : 0,
      expiresInMs: Math.max(0, slot.expiresAt - now),
    };
  }
}
