import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { LiveBus, type LiveSignal, type TokenCredential } from '@dts/persistence';

/** How long an entry is trusted at most: the bound for a change made outside the api (SQL by hand). */
export const CREDENTIAL_CACHE_TTL_MS = 30_000;
/** Entries at most; the oldest go first. */
const MAX_ENTRIES = 10_000;
/** Wait before trying the bus again after it could not be reached. */
const RETRY_LISTEN_MS = 5_000;

interface Entry {
  credential: TokenCredential;
  storedAt: number;
}

/**
 * The token credentials this process looked up recently (docs/benchmarks.md, figure 4), so that a
 * token-authenticated request does not query the database each time, and still refused at once
 * on every instance when it ends: whatever ends a credential announces it on the live bus
 * (CredentialRevocations, which waits until the notice has been delivered), and every instance
 * drops the account's entries when it hears it.
 *
 * Trusted only while notices can be heard: while this process's live subscription is down the cache
 * is bypassed and emptied, after a reconnect (notices may have been lost) it is emptied, and a
 * look-up that a notice overtook is used for its own request but not kept. An entry lives
 * CREDENTIAL_CACHE_TTL_MS at most. A token's expiry is checked on every use by the authenticator,
 * cached or not.
 */
@Injectable()
export class CredentialCache implements OnApplicationShutdown {
  private readonly entries = new Map<string, Entry>();
  /** Moves on with every notice and reconnect: a look-up that began in another epoch is not kept. */
  private epoch = 0;
  private listening: Promise<void> | null = null;
  private lastAttempt = -Infinity;
  private stopListening: (() => void) | null = null;
  private closed = false;

  constructor(private readonly bus: LiveBus) {}

  /** The credential for this token digest: from the cache when it can be trusted, else from `load`. */
  async token(digest: Buffer, load: () => Promise<TokenCredential | null>): Promise<TokenCredential | null> {
    if (!this.trusted()) return load();
    const key = digest.toString('hex');
    const hit = this.entries.get(key);
    const now = Date.now();
    if (hit && now - hit.storedAt < CREDENTIAL_CACHE_TTL_MS) return hit.credential;
    if (hit) this.entries.delete(key);
    const epoch = this.epoch;
    const found = await load();
    // A token that does not authenticate is not kept: a refusal costs the query, as before.
    if (found && epoch === this.epoch && this.trusted()) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, { credential: found, storedAt: now });
    }
    return found;
  }

  /** Drops the account's entries in this process (what hearing its notice does on every instance), and the keys it made for organisations. */
  forget(accountId: number): void {
    this.epoch++;
    for (const [key, entry] of this.entries) {
      if (entry.credential.accountId === accountId || entry.credential.createdBy === accountId) this.entries.delete(key);
    }
  }

  onApplicationShutdown(): void {
    this.closed = true;
    this.stopListening?.();
    this.entries.clear();
  }

  /** Whether the cache may answer now; starts listening the first time it is asked. */
  private trusted(): boolean {
    if (this.closed) return false;
    if (this.stopListening === null) {
      if (this.listening === null && Date.now() - this.lastAttempt >= RETRY_LISTEN_MS) {
        this.lastAttempt = Date.now();
        this.listening = this.listen();
      }
      return false;
    }
    if (this.bus.healthy) return true;
    this.clear();
    return false;
  }

  private async listen(): Promise<void> {
    try {
      const stop = await this.bus.listen((signal) => this.heard(signal));
      if (this.closed) stop();
      else this.stopListening = stop;
    } catch {
      // The bus cannot be reached: no cache; the next look-up tries again.
    } finally {
      this.listening = null;
    }
  }

  private heard(signal: LiveSignal): void {
    if (signal.kind === 'credentials') this.forget(signal.account);
    else if (signal.kind === 'resync') this.clear();
  }

  private clear(): void {
    this.epoch++;
    this.entries.clear();
  }
}
