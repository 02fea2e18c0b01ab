import { Injectable } from '@nestjs/common';
import { DEFAULT_TOPIC_TEMPLATE, renderTopic, TEST_EVENT_TOPIC_DEVICE, testEventBody, webhookSecretKey } from '@dts/domain';
import type { IntegrationTarget, OutgoingDelivery } from '@dts/persistence';
import { TokenCryptoService } from '@dts/platform';
import { randomBytes } from 'node:crypto';
import type { AttemptOutcome } from './attempt';
import { type BrokerSettings, MqttTransport } from './mqtt-transport';
import { WebhookTransport } from './webhook-transport';

/**
 * How an event reaches one integration: its secrets unsealed, a webhook signed and POSTed, an MQTT
 * message published to the topic its template names. The one place that turns an integration into
 * a sending, for the dispatcher's deliveries and the api's test send alike, so a test goes exactly
 * as a real event would: the same signature, the same address checks, the same timeout.
 */
@Injectable()
export class IntegrationSender {
  constructor(
    private readonly crypto: TokenCryptoService,
    private readonly webhooks: WebhookTransport,
    private readonly mqtt: MqttTransport,
  ) {}

  /** Sends the target's deliveries (secrets unsealed once for the whole lane). */
  forTarget(target: IntegrationTarget): (d: OutgoingDelivery, signal: AbortSignal) => Promise<AttemptOutcome> {
    if (target.kind === 'webhook') {
      const key = this.webhookKey(target);
      return async (d, signal) => (key ? this.webhooks.send(target.url, key, `evt_${d.event_id}`, d.body, signal) : NO_SECRET);
    }
    const settings = this.brokerSettings(target);
    return (d, signal) => this.mqtt.publish(settings, topicOf(target, d.eui, d.kind), d.body, target.qos ?? 1, signal);
  }

  /**
   * One test event (docs/api.md §18), now: a webhook POSTed and signed, or a message published on a
   * connection of its own that is closed after it. Nothing is stored and nothing is retried.
   */
  async test(target: IntegrationTarget): Promise<AttemptOutcome> {
    const id = `evt_test_${randomBytes(8).toString('hex')}`;
    const body = JSON.stringify(testEventBody(id, new Date(), target));
    if (target.kind === 'webhook') {
      const key = this.webhookKey(target);
      return key ? this.webhooks.send(target.url, key, id, body) : NO_SECRET;
    }
    return this.mqtt.publishOnce(this.brokerSettings(target), topicOf(target, TEST_EVENT_TOPIC_DEVICE, 'test'), body, target.qos ?? 1);
  }

  private webhookKey(target: IntegrationTarget): Uint8Array | null {
    return target.secret_encrypted ? webhookSecretKey(this.crypto.decrypt(target.secret_encrypted)) : null;
  }

  private brokerSettings(target: IntegrationTarget): BrokerSettings {
    return {
      integration: target.uid,
      url: target.url,
      username: target.username,
      password: target.password_encrypted ? this.crypto.decrypt(target.password_encrypted) : null,
      version: target.updated_at.toISOString(),
    };
  }
}

const NO_SECRET: AttemptOutcome = { ok: false, status: null, latencyMs: 0, error: 'no secret', gone: false };

function topicOf(target: IntegrationTarget, devEUI: string, event: string): string {
  return renderTopic(target.topic ?? DEFAULT_TOPIC_TEMPLATE, { devEUI, event, account: String(target.account_id) });
}
