import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { formatWebhookSignature, webhookSignedContent } from '@dts/domain';
import { APP_CONFIG, type AppConfig, outboundRequest } from '@dts/platform';
import { createHmac } from 'node:crypto';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { type AttemptOutcome, errorText } from './attempt';

const USER_AGENT = 'DeviceTelemetryService-Webhooks/1';

/**
 * POSTs an event to an account's URL, signed per Standard Webhooks, through the SSRF guard (every
 * address judged as the connection is made, redirects not followed). Connections are kept alive
 * between deliveries: a receiver sees a steady stream, not a handshake per event.
 */
@Injectable()
export class WebhookTransport implements OnApplicationShutdown {
  private readonly http = new HttpAgent({ keepAlive: true, maxSockets: 32 });
  private readonly https = new HttpsAgent({ keepAlive: true, maxSockets: 32 });

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /**
   * `key`: the secret's bytes; `id`: the event's id (`webhook-id`, the same on every retry). The whole
   * exchange, connection and answer included, ends at INTEGRATION_TIMEOUT_MS, or when `signal` abandons it.
   */
  async send(url: string, key: Uint8Array, id: string, body: string, signal?: AbortSignal): Promise<AttemptOutcome> {
    const timestamp = Math.floor(Date.now() / 1000);
    const mac = createHmac('sha256', key)
      .update(webhookSignedContent(id, timestamp, body))
      .digest('base64');
    const started = performance.now();
    try {
      const res = await outboundRequest(url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': USER_AGENT,
          'webhook-id': id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': formatWebhookSignature(mac),
        },
        body,
        timeoutMs: this.config.integrations.timeoutMs,
        allowPrivate: this.config.outboundAllowPrivate,
        agent: url.startsWith('https:') ? this.https : this.http,
        signal,
      });
      const latencyMs = performance.now() - started;
      if (res.status >= 200 && res.status < 300) return { ok: true, status: res.status, latencyMs, error: null, gone: false };
      const said = res.text.replace(/\s+/g, ' ').trim().slice(0, 200);
      const error = `HTTP ${res.status}${res.status >= 300 && res.status < 400 ? ' (redirects are not followed)' : ''}${said ? `: ${said}` : ''}`;
      return { ok: false, status: res.status, latencyMs, error, gone: res.status === 410 };
    } catch (error) {
      return { ok: false, status: null, latencyMs: performance.now() - started, error: errorText(error), gone: false };
    }
  }

  onApplicationShutdown(): void {
    this.http.destroy();
    this.https.destroy();
  }
}
