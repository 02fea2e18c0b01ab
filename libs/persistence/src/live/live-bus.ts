import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import { nodeName, type RedisClient, subscriberConnection } from '@dts/platform';
import type { Redis } from 'ioredis';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { randomBytes } from 'node:crypto';
import { type LiveNotice, type LiveSignal, liveEchoOf, packLiveNotices, unpackLiveNotices } from './live-notices';

/** The NOTIFY channel: channels are per database, so the database is the scope. */
const PG_CHANNEL = 'dts_live';
/** Wait before reopening a lost LISTEN connection. */
const RECONNECT_MS = 1_000;
/** How long a publisher waits to hear its own message before going on without. */
const ECHO_TIMEOUT_MS = 2_000;

/**
 * Publish/subscribe of live notices between all api and worker instances: Redis pub/sub when Redis
 * is configured, else PostgreSQL LISTEN/NOTIFY on the service's own database (the embedded wire
 * server routes NOTIFY to the connections that LISTEN, as a real server does).
 *
 * A process holds at most one subscription (one LISTEN connection or one Redis subscriber), opened
 * when the first listener arrives; its listeners fan the notices out in-process. Delivery is at most
 * once: a notice published while the subscription is down is lost, which is why listeners get a
 * `resync` after every reconnect and why notices name "everything up to" rather than one row.
 */
export class LiveBus implements OnApplicationShutdown {
  private readonly logger = new Logger('LiveBus');
  private readonly listeners = new Set<(signal: LiveSignal) => void>();
  private opening: Promise<void> | null = null;
  private pgClient: Client | null = null;
  private redisSubscriber: Redis | null = null;
  /** The cluster node whose subscription was lost last: the next one is opened elsewhere if it can be. */
  private lostNode: string | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private closed = false;
  /** Publishers waiting to hear their own mark, by mark. */
  private readonly echoes = new Map<string, () => void>();
  private nextEcho = 0;
  /** Publishing is being skipped (Redis not connected): told once per outage. */
  private skipping = false;
  private readonly echoPrefix = randomBytes(6).toString('hex');
  private readonly redisChannel: string;

  constructor(
    private readonly ds: DataSource,
    private readonly redis: RedisClient | null,
    private readonly databaseUrl: string,
    prefix: string,
  ) {
    this.redisChannel = `${prefix}:live`;
  }

  /**
   * Announces committed changes. Call it after the commit (a notice must never name rows a reader
   * cannot see yet). Never throws: the change is stored either way, and live clients catch up with
   * the next notice for the device.
   */
  async publish(notices: LiveNotice[], { heard = false }: { heard?: boolean } = {}): Promise<void> {
    if (notices.length === 0 || this.closed) return;
    // A Redis that is not connected is not waited for: the client would hold each publish through
    // its reconnect attempts (up to ~2 s), and with it the ingest batch that called (the group
    // commit's next batch waits behind it) — ingest must go on through a Redis outage at full pace.
    // The notices are lost either way; the subscribers, cut off from the same Redis, resync on
    // reconnect.
    if (this.redis && this.redis.status !== 'ready') {
      if (!this.skipping) this.logger.warn(`live notices not published while Redis is ${this.redis.status}`);
      this.skipping = true;
      return;
    }
    this.skipping = false;
    // `heard`: resolve only once this process's own subscription has heard the message (up to
    // ECHO_TIMEOUT_MS), so that every other subscriber has been sent it too when the caller answers.
    const echo = heard && this.healthy ? `${this.echoPrefix}${(this.nextEcho++).toString(16)}` : null;
    const messages = packLiveNotices(notices, echo);
    let echoed: Promise<void> = Promise.resolve();
    let timer: NodeJS.Timeout | undefined;
    if (echo !== null) {
      echoed = new Promise<void>((resolve) => {
        this.echoes.set(echo, resolve);
        timer = setTimeout(() => {
          this.logger.warn('live notices not heard back in time');
          resolve();
        }, ECHO_TIMEOUT_MS);
      }).finally(() => {
        clearTimeout(timer);
        this.echoes.delete(echo);
      });
    }
    try {
      if (this.redis) {
        for (const m of messages) await this.redis.publish(this.redisChannel, m);
      } else {
        await this.ds.query('SELECT pg_notify($1, m) FROM unnest($2::text[]) AS m', [PG_CHANNEL, messages]);
      }
    } catch (error) {
      this.logger.warn(`live notices not published: ${error instanceof Error ? error.message : String(error)}`);
      if (echo !== null) this.echoes.get(echo)?.();
    }
    await echoed;
  }

  /**
   * Adds a listener; resolves once the process's subscription is active, so that everything
   * committed after this resolves is heard. Returns the function that removes the listener.
   */
  async listen(listener: (signal: LiveSignal) => void): Promise<() => void> {
    if (this.closed) throw new Error('the live bus is closed');
    this.listeners.add(listener);
    try {
      await this.open();
    } catch (error) {
      this.listeners.delete(listener);
      throw error;
    }
    return () => this.listeners.delete(listener);
  }

  /** Listeners in this process (the live feed's hubs). */
  get listenerCount(): number {
    return this.listeners.size;
  }

  /** Whether this process holds its subscription (LISTEN connection or Redis subscriber) now. */
  get subscribed(): boolean {
    return this.pgClient !== null || this.redisSubscriber !== null;
  }

  /**
   * Whether notices published now reach this process: the LISTEN connection is open, or the Redis
   * subscriber is connected (ioredis keeps the subscriber object while it reconnects, and what is
   * published meanwhile is lost).
   */
  get healthy(): boolean {
    return this.pgClient !== null || this.redisSubscriber?.status === 'ready';
  }

  /**
   * Opens this process's subscription if it is not open; a listener added afterwards hears
   * everything committed from then on. Never throws: false when the transport cannot be reached.
   */
  async ensureOpen(): Promise<boolean> {
    if (this.closed) return false;
    try {
      await this.open();
      return true;
    } catch {
      return false;
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.listeners.clear();
    await this.opening?.catch(() => undefined);
    const client = this.pgClient;
    this.pgClient = null;
    await client?.end().catch(() => undefined);
    const subscriber = this.redisSubscriber;
    this.redisSubscriber = null;
    if (subscriber) await subscriber.quit().catch(() => subscriber.disconnect());
  }

  private open(): Promise<void> {
    if (this.subscribed) return Promise.resolve();
    this.opening ??= (this.redis ? this.openRedis(this.redis) : this.openPg()).finally(() => {
      this.opening = null;
    });
    return this.opening;
  }

  private async openRedis(redis: RedisClient): Promise<void> {
    // On a Redis Cluster, a connection to one node: PUBLISH on any node reaches every node's subscribers.
    const subscriber = await subscriberConnection(redis, this.lostNode);
    let ready = false;
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.redisChannel) this.deliver(message);
    });
    subscriber.on('error', (error: Error) => this.logger.warn(`live subscriber: ${error.message}`));
    // ioredis subscribes again by itself after a reconnect; what was published meanwhile is lost.
    subscriber.on('ready', () => {
      if (ready) this.emit({ kind: 'resync' });
    });
    // Only a cluster's subscriber ends by itself (it gave its node up): open one on another node.
    subscriber.on('end', () => this.redisLost(subscriber));
    try {
      await subscriber.subscribe(this.redisChannel);
    } catch (error) {
      subscriber.removeAllListeners('end');
      subscriber.disconnect();
      throw error;
    }
    ready = true;
    if (this.closed) {
      subscriber.disconnect();
      return;
    }
    this.redisSubscriber = subscriber;
  }

  /** The cluster subscriber gave its node up: subscribe on another while anyone listens, and tell them to catch up. */
  private redisLost(subscriber: Redis): void {
    if (this.redisSubscriber !== subscriber || this.closed) return;
    this.redisSubscriber = null;
    this.lostNode = nodeName(subscriber);
    subscriber.removeAllListeners('message');
    this.logger.warn(`live subscriber lost Redis Cluster node ${this.lostNode}: subscribing on another`);
    this.reopenLater();
  }

  private async openPg(): Promise<void> {
    // Its own connection, not one of the pool: a LISTEN belongs to one session for its lifetime.
    const client = new Client({ connectionString: this.databaseUrl, keepAlive: true });
    client.on('notification', (n) => {
      if (n.channel === PG_CHANNEL && n.payload) this.deliver(n.payload);
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, null));
    try {
      await client.connect();
      await client.query(`LISTEN ${PG_CHANNEL}`);
    } catch (error) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.pgClient = client;
  }

  /** The LISTEN connection went away: reopen it while anyone listens, and tell them to catch up. */
  private lost(client: Client, error: Error | null): void {
    if (this.pgClient !== client || this.closed) return;
    this.pgClient = null;
    client.removeAllListeners('notification');
    void client.end().catch(() => undefined);
    this.logger.warn(`live LISTEN connection lost${error ? `: ${error.message}` : ''}`);
    this.reopenLater();
  }

  /** Reopens the subscription after RECONNECT_MS (again and again while it fails), then has the listeners catch up. */
  private reopenLater(): void {
    const retry = () => {
      this.reconnectTimer = null;
      if (this.closed || this.listeners.size === 0) return;
      this.open().then(
        () => this.emit({ kind: 'resync' }),
        () => (this.reconnectTimer = setTimeout(retry, RECONNECT_MS)),
      );
    };
    this.reconnectTimer = setTimeout(retry, RECONNECT_MS);
  }

  private deliver(message: string): void {
    for (const notice of unpackLiveNotices(message)) this.emit(notice);
    const echo = liveEchoOf(message);
    if (echo !== null) this.echoes.get(echo)?.();
  }

  private emit(signal: LiveSignal): void {
    for (const listener of this.listeners) {
      try {
        listener(signal);
      } catch (error) {
        this.logger.error(`live listener failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
}
