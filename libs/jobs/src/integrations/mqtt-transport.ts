import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { retryDelayMs } from '@dts/domain';
import { APP_CONFIG, type AppConfig, guardedBrokerSocket, parseBrokerUrl } from '@dts/platform';
import type { MqttClient } from 'mqtt';
import { randomBytes } from 'node:crypto';
import { type AttemptOutcome, errorText } from './attempt';

/** What a connection to one integration's broker is made with; a change makes a new connection. */
export interface BrokerSettings {
  integration: number;
  url: string;
  username: string | null;
  password: string | null;
  /** Changes whenever the integration is edited. */
  version: string;
}

/** Reconnects back off up to this. */
const MAX_RECONNECT_MS = 60_000;
/** A connection unused this long is closed (the integration was deleted, disabled or is quiet). */
const IDLE_MS = 10 * 60_000;

/**
 * mqtt.js, loaded at a process's first publish: about 20 MB and 80 ms at start-up that a service
 * without an MQTT integration never needs (docs/benchmarks.md, figure 15).
 */
const loadMqtt = () => import('mqtt');

interface Connection {
  settings: BrokerSettings;
  client: MqttClient;
  lastError: string | null;
  failures: number;
  reconnectTimer: NodeJS.Timeout | null;
  usedAt: number;
  closed: boolean;
}

/**
 * One MQTT connection per integration and worker (mqtt.js, MQTT 3.1.1, a client id of its own per
 * process so that two workers do not take each other's session), kept open between events,
 * reconnecting with exponential backoff and jitter. Each connection's socket goes through the SSRF
 * guard. Nothing is queued in memory: while a broker is unreachable a publish fails at once and the
 * delivery waits in the database (its lane retries with backoff), so a restart loses nothing.
 */
@Injectable()
export class MqttTransport implements OnApplicationShutdown {
  private readonly logger = new Logger('MqttTransport');
  private readonly connections = new Map<number, Connection>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.sweeper = setInterval(() => this.closeIdle(), 60_000);
    this.sweeper.unref();
  }

  /**
   * One attempt, within INTEGRATION_TIMEOUT_MS in all (a first connection's handshake included), or
   * until `signal` abandons it.
   */
  async publish(settings: BrokerSettings, topic: string, body: string, qos: 0 | 1, signal?: AbortSignal): Promise<AttemptOutcome> {
    const started = performance.now();
    const { MqttClient } = await loadMqtt();
    const connection = this.connection(settings, MqttClient);
    if (typeof connection === 'string') return failed(started, `the broker URL ${connection}`);
    return this.attempt(connection, started, topic, body, qos, signal);
  }

  /**
   * One publish on a connection of its own, closed after it (a test send from the api: nothing is
   * kept open for a broker that may never be used again). Judged and bounded as `publish` is.
   */
  async publishOnce(settings: BrokerSettings, topic: string, body: string, qos: 0 | 1): Promise<AttemptOutcome> {
    const started = performance.now();
    const { MqttClient } = await loadMqtt();
    const connection = this.open(settings, MqttClient);
    if (typeof connection === 'string') return failed(started, `the broker URL ${connection}`);
    try {
      return await this.attempt(connection, started, topic, body, qos);
    } finally {
      this.close(connection);
    }
  }

  private async attempt(connection: Connection, started: number, topic: string, body: string, qos: 0 | 1, signal?: AbortSignal): Promise<AttemptOutcome> {
    try {
      const attempt = this.connected(connection).then(() => connection.client.publishAsync(topic, body, { qos }));
      await bounded(attempt, this.config.integrations.timeoutMs, signal, () =>
        connection.client.connected ? 'no acknowledgement from the broker' : 'no connection to the broker in time',
      );
      return { ok: true, status: null, latencyMs: performance.now() - started, error: null, gone: false };
    } catch (error) {
      return failed(started, errorText(error));
    }
  }

  /** Open connections, for tests and health. */
  get size(): number {
    return this.connections.size;
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweeper);
    for (const c of this.connections.values()) this.close(c);
    this.connections.clear();
  }

  /** The integration's connection, or why its broker URL cannot be connected to (judged again here: one stored before a rule). */
  private connection(settings: BrokerSettings, Client: typeof MqttClient): Connection | string {
    const existing = this.connections.get(settings.integration);
    if (existing && existing.settings.version === settings.version && existing.settings.url === settings.url) {
      existing.usedAt = Date.now();
      return existing;
    }
    if (existing) this.close(existing);
    const connection = this.open(settings, Client);
    if (typeof connection === 'string') return connection;
    this.connections.set(settings.integration, connection);
    return connection;
  }

  /** A new connection to the broker, through the SSRF guard, or why its URL cannot be connected to. */
  private open(settings: BrokerSettings, Client: typeof MqttClient): Connection | string {
    const broker = parseBrokerUrl(settings.url, this.config.integrations.mqttAllowedPorts);
    if (typeof broker === 'string') return broker;
    const client = new Client(() => guardedBrokerSocket(broker, this.config.outboundAllowPrivate), {
      protocolVersion: 4,
      clientId: `dts-${settings.integration}-${randomBytes(6).toString('hex')}`,
      username: settings.username ?? undefined,
      password: settings.password ?? undefined,
      clean: true,
      keepalive: 60,
      connectTimeout: this.config.integrations.timeoutMs,
      // Reconnection is ours (backoff with jitter); mqtt.js would retry at a fixed period.
      reconnectPeriod: 0,
      queueQoSZero: false,
    });
    const connection: Connection = { settings, client, lastError: null, failures: 0, reconnectTimer: null, usedAt: Date.now(), closed: false };
    client.on('connect', () => {
      connection.failures = 0;
      connection.lastError = null;
    });
    client.on('error', (error) => {
      connection.lastError = errorText(error);
    });
    client.on('close', () => this.scheduleReconnect(connection));
    return connection;
  }

  private scheduleReconnect(c: Connection): void {
    if (c.closed || c.reconnectTimer) return;
    c.failures++;
    const delay = Math.min(MAX_RECONNECT_MS, retryDelayMs(c.failures));
    c.reconnectTimer = setTimeout(() => {
      c.reconnectTimer = null;
      if (!c.closed) c.client.reconnect();
    }, delay);
    c.reconnectTimer.unref();
  }

  /** Resolves once connected; a connection that is down fails the attempt at once (after a first connection's handshake). */
  private connected(c: Connection): Promise<void> {
    if (c.client.connected) return Promise.resolve();
    if (c.failures > 0) return Promise.reject(new Error(`broker not connected${c.lastError ? `: ${c.lastError}` : ''}`));
    return new Promise((resolve, reject) => {
      const done = (error?: Error) => {
        c.client.off('connect', onConnect);
        c.client.off('close', onClose);
        if (error) reject(error);
        else resolve();
      };
      const onConnect = () => done();
      const onClose = () => done(new Error(`broker not connected${c.lastError ? `: ${c.lastError}` : ''}`));
      c.client.on('connect', onConnect);
      c.client.on('close', onClose);
    });
  }

  private close(c: Connection): void {
    c.closed = true;
    if (c.reconnectTimer) clearTimeout(c.reconnectTimer);
    c.client.end(true);
    if (this.connections.get(c.settings.integration) === c) this.connections.delete(c.settings.integration);
  }

  private closeIdle(): void {
    const now = Date.now();
    for (const c of [...this.connections.values()]) {
      if (now - c.usedAt > IDLE_MS) {
        this.logger.debug(`closing the idle connection of integration ${c.settings.integration}`);
        this.close(c);
      }
    }
  }
}

function failed(started: number, error: string): AttemptOutcome {
  return { ok: false, status: null, latencyMs: performance.now() - started, error, gone: false };
}

/** `promise`, or a rejection after `ms` (saying `timedOut()`) or when `signal` aborts, whichever comes first. */
function bounded<T>(promise: Promise<T>, ms: number, signal: AbortSignal | undefined, timedOut: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(timedOut())), ms);
    onAbort = () => reject(new Error(`abandoned: ${signal?.reason instanceof Error ? signal.reason.message : String(signal?.reason)}`));
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([promise, stop]).finally(() => {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  });
}
