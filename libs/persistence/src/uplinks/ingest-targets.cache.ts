import { Logger } from '@nestjs/common';
import { Client } from 'pg';

/** The channel migration 1795790000000-ingest-target-notices notifies on every change a look-up reads. */
const CHANNEL = 'dts_ingest_targets';
/** How long an entry is trusted at most, whatever is heard. */
export const INGEST_TARGET_TTL_MS = 30_000;
const MAX_ENTRIES = 20_000;
/** Wait before opening the LISTEN connection again after it failed or was lost. */
const RETRY_MS = 5_000;

interface Entry<V> {
  value: V;
  storedAt: number;
}

/**
 * The live devices this process looked up for ingestion, by EUI (docs/benchmarks.md, figure 2), so
 * that a delivery does not query them each time. The database says when to forget them: a trigger
 * notifies at commit when a device's owner, decoder, network, EUI or deletion, or a decoder, changes
 * (migration 1795790000000), and every process listening empties its cache. Trusted only while its
 * LISTEN connection is open (emptied when it is lost or reopened: notices may have been missed); a
 * look-up that a notice overtook serves its own delivery and is not kept; an entry lives
 * INGEST_TARGET_TTL_MS at most. An EUI not found is never kept: a device registered a moment ago
 * is found by the next delivery.
 */
export class IngestTargetsCache<V> {
  private readonly logger = new Logger('IngestTargetsCache');
  private readonly entries = new Map<string, Entry<V>>();
  private epoch = 0;
  private client: Client | null = null;
  private opening: Promise<void> | null = null;
  private lastAttempt = -Infinity;
  private closed = false;

  constructor(private readonly databaseUrl: string) {}

  /** The values for these keys: the cached ones, and the others from `load` (one call), kept when trusted. */
  async get(keys: string[], load: (missing: string[]) => Promise<Map<string, V>>): Promise<Map<string, V>> {
    if (!this.trusted()) return load(keys);
    const now = Date.now();
    const found = new Map<string, V>();
    const missing: string[] = [];
    for (const key of keys) {
      const hit = this.entries.get(key);
      if (hit && now - hit.storedAt < INGEST_TARGET_TTL_MS) found.set(key, hit.value);
      else missing.push(key);
    }
    if (missing.length === 0) return found;
    const epoch = this.epoch;
    const loaded = await load(missing);
    const keep = epoch === this.epoch && this.trusted();
    for (const [key, value] of loaded) {
      found.set(key, value);
      if (!keep) continue;
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, { value, storedAt: now });
    }
    return found;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.forget();
    await this.opening?.catch(() => undefined);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private forget(): void {
    this.epoch++;
    this.entries.clear();
  }

  private trusted(): boolean {
    if (this.closed) return false;
    if (this.client) return true;
    if (this.opening === null && Date.now() - this.lastAttempt >= RETRY_MS) {
      this.lastAttempt = Date.now();
      this.opening = this.open().finally(() => (this.opening = null));
    }
    return false;
  }

  private async open(): Promise<void> {
    const client = new Client({ connectionString: this.databaseUrl, keepAlive: true });
    client.on('notification', (n) => {
      if (n.channel === CHANNEL) this.forget();
    });
    const lost = (error?: Error) => {
      if (this.client !== client) return;
      this.client = null;
      this.forget();
      this.logger.warn(`LISTEN connection lost${error ? `: ${error.message}` : ''}; devices are looked up each time until it is back`);
      void client.end().catch(() => undefined);
    };
    client.on('error', lost);
    client.on('end', () => lost());
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    // Whatever changed before LISTEN took effect may be in entries kept meanwhile: start empty.
    this.forget();
    this.client = client;
  }
}
