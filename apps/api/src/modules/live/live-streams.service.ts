import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { LiveBus, type LiveSignal } from '@dts/persistence';
import { APP_CONFIG, type AppConfig, loopStall } from '@dts/platform';
import { Authenticator } from '../../common/auth/authenticator.service';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { ApiException } from '../../common/http/api.exception';
import type { OpenConnection } from '../../common/http/open-connection';
import { BusSubscription } from './bus-subscription';

/**
 * Kinds of long responses. `live` feeds and `export`s (history reads that may be long) each have a
 * cap per account; a `read` is a history read known to be small (SMALL_READ_MAX_ROWS), uncapped
 * here — the account's request budget bounds it as it bounds any request — but still watched for
 * stalls and revoked credentials like every stream.
 */
export type StreamKind = 'live' | 'export' | 'read';

/** What a refused stream's client is told to wait: a slot frees when one of its streams ends. */
const RETRY_AFTER_S = 5;
/** How often open streams are looked at for a client that stopped reading. */
const STALL_CHECK_MS = 1_000;

interface OpenStream {
  kind: StreamKind;
  principal: AuthPrincipal;
  connection: OpenConnection;
  /** When the client last took bytes (or the response had nothing waiting to be sent). */
  progressAt: number;
  /** The socket's bytes handed to the kernel at that time: growing means the client reads. */
  flushed: number;
  expiry: NodeJS.Timeout | null;
}

/**
 * Every response that outlives its request — live feeds, history reads and exports, and any stream
 * added later — is admitted here, so that each gets the same three guarantees through one path:
 * - a cap per account and kind in this instance (STREAMS_PER_ACCOUNT, EXPORTS_PER_ACCOUNT),
 *   checked before the stream does any database work: past it, 429 RATE_LIMITED with Retry-After;
 * - its credential is re-validated whenever the account's credentials change, on any instance
 *   (the live bus' `credentials` notices: token deleted, logout, password changed or reset, account
 *   deleted), and at the token's own expiry; a stream whose credential ended is cut;
 * - a response whose client has not taken what was written for STREAM_STALL_TIMEOUT_MS is ended,
 *   so a slow reader cannot hold the service's memory or a database cursor for ever.
 */
@Injectable()
export class LiveStreamsService implements OnModuleDestroy {
  private readonly logger = new Logger(LiveStreamsService.name);
  private readonly byAccount = new Map<number, Set<OpenStream>>();
  private readonly subscription: BusSubscription;
  private stallTimer: NodeJS.Timeout | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    bus: LiveBus,
    private readonly authenticator: Authenticator,
  ) {
    this.subscription = new BusSubscription(bus, (signal) => this.onSignal(signal));
  }

  /**
   * Admits a long response for the caller or throws 429. The stream is counted until `connection`
   * closes; call this first, before any database work of the stream.
   */
  async admit(principal: AuthPrincipal, kind: StreamKind, connection: OpenConnection): Promise<void> {
    const cap = this.capOf(kind);
    const streams = this.byAccount.get(principal.accountId) ?? new Set<OpenStream>();
    if (cap !== null && [...streams].filter((s) => s.kind === kind).length >= cap) {
      throw new ApiException(
        [{ code: 'RATE_LIMITED', message: `at most ${cap} ${kind === 'live' ? 'live streams' : 'history reads and exports'} open at once per account` }],
        RETRY_AFTER_S,
      );
    }
    const stream: OpenStream = { kind, principal, connection, progressAt: Date.now(), flushed: 0, expiry: null };
    streams.add(stream);
    this.byAccount.set(principal.accountId, streams);
    if (principal.tokenUntil) {
      // A timer past 24.8 days would fire at once: such a token is re-checked by the next notice or reconnect.
      const left = principal.tokenUntil.getTime() - Date.now();
      if (left < 2 ** 31 - 1) stream.expiry = setTimeout(() => connection.destroy(), Math.max(0, left)).unref();
    }
    connection.onClose(() => this.release(stream));
    this.watchStalls();
    // Subscribed before the stream starts: a revocation from now on reaches it.
    await this.subscription.open();
  }

  /** Open streams in this instance, by kind. */
  stats(): Record<StreamKind, number> {
    const counts: Record<StreamKind, number> = { live: 0, export: 0, read: 0 };
    for (const streams of this.byAccount.values()) for (const s of streams) counts[s.kind]++;
    return counts;
  }

  /** How many streams of this kind an account may hold open at once in this instance; null: no cap. */
  private capOf(kind: StreamKind): number | null {
    switch (kind) {
      case 'live':
        return this.config.streams.livePerAccount;
      case 'export':
        return this.config.streams.exportsPerAccount;
      case 'read':
        return null;
    }
  }

  onModuleDestroy(): void {
    if (this.stallTimer) clearInterval(this.stallTimer);
    this.subscription.close();
  }

  private release(stream: OpenStream): void {
    if (stream.expiry) clearTimeout(stream.expiry);
    const streams = this.byAccount.get(stream.principal.accountId);
    if (!streams) return;
    streams.delete(stream);
    if (streams.size === 0) this.byAccount.delete(stream.principal.accountId);
  }

  private onSignal(signal: LiveSignal): void {
    if (signal.kind === 'credentials') void this.revalidate(signal.account);
    // A lost subscription may have lost a revocation: re-check everyone.
    if (signal.kind === 'resync') for (const account of this.byAccount.keys()) void this.revalidate(account);
  }

  /**
   * Re-checks each distinct credential of the account's open streams once, and of the streams its
   * person opened in organisations; cuts those that ended.
   */
  private async revalidate(accountId: number): Promise<void> {
    const streams = [...(this.byAccount.get(accountId) ?? [])];
    for (const [acting, opened] of this.byAccount) {
      if (acting !== accountId) for (const stream of opened) if (stream.principal.userId === accountId) streams.push(stream);
    }
    const verdicts = new Map<string, Promise<boolean>>();
    for (const stream of streams) {
      const { principal } = stream;
      const key = principal.via === 'token' ? `t${principal.tokenUid}` : `s${principal.sessionDigest?.toString('hex')}`;
      if (!verdicts.has(key))
        verdicts.set(
          key,
          this.authenticator.stillValid(principal).catch(() => true),
        );
      if (!(await verdicts.get(key))) {
        this.logger.log(`stream of account ${accountId} cut: its credential ended`);
        stream.connection.destroy();
      }
    }
  }

  private watchStalls(): void {
    if (this.stallTimer) return;
    let dueAt = performance.now() + STALL_CHECK_MS;
    this.stallTimer = setInterval(() => {
      const now = Date.now();
      // Time this process stood still (its own stall, not the clients') is not held against them.
      const stood = loopStall(dueAt);
      dueAt = performance.now() + STALL_CHECK_MS;
      let open = 0;
      for (const streams of this.byAccount.values()) {
        for (const stream of streams) {
          open++;
          stream.progressAt += stood;
          // Progress: nothing waiting in the process, or the kernel took more bytes since the last
          // look (the client reads, however slowly). A whole export buffered at once drains for as
          // long as its client keeps reading.
          const flushed = stream.connection.flushed;
          if (stream.connection.unsent === 0 || flushed !== stream.flushed) {
            stream.progressAt = now;
            stream.flushed = flushed;
          } else if (now - stream.progressAt > this.config.streams.stallTimeoutMs) stream.connection.destroy();
        }
      }
      if (open === 0 && this.stallTimer) {
        clearInterval(this.stallTimer);
        this.stallTimer = null;
      }
    }, STALL_CHECK_MS).unref();
  }
}
