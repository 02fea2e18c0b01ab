import { Inject, Injectable } from '@nestjs/common';
import {
  type CreatedIntegrationWire,
  DEFAULT_TOPIC_TEMPLATE,
  type DeliveryWire,
  type DeviceFilterWire,
  generateWebhookSecret,
  INTEGRATION_URL_MAX_LENGTH,
  type IntegrationKind,
  type IntegrationWire,
  MAX_INTEGRATIONS_PER_ACCOUNT,
  normalizeDeviceFilter,
  normalizeEui,
  type TestSendWire,
} from '@dts/domain';
import { IntegrationSender } from '@dts/jobs';
import { DeliveriesRepository, type IntegrationChanges, IntegrationsRepository, LiveBus } from '@dts/persistence';
import { APP_CONFIG, type AppConfig, brokerUrlProblem, outboundUrlProblem, parseBrokerUrl, parsedOutboundUrl, TokenCryptoService } from '@dts/platform';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { ApiException } from '../../common/http/api.exception';
import type { DeviceFilterDto } from './dto/device-filter.dto';
import type { CreateIntegrationDto, DeliveriesQueryDto, UpdateIntegrationDto } from './dto';
import { toDeliveryWire, toIntegrationWire } from './integration.mapper';

/** Members only an MQTT integration has. */
const MQTT_ONLY = ['topic', 'qos', 'username', 'password'] as const;
/** Members that may be left out of a PATCH but never set to null. */
const NOT_NULL = ['name', 'url', 'events', 'enabled'] as const;

/** An account's outbound integrations (docs/api.md §18): webhooks and MQTT brokers, and each delivery's fate. */
@Injectable()
export class IntegrationsService {
  constructor(
    private readonly integrations: IntegrationsRepository,
    private readonly deliveries: DeliveriesRepository,
    private readonly crypto: TokenCryptoService,
    private readonly bus: LiveBus,
    private readonly sender: IntegrationSender,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(me: AuthPrincipal): Promise<IntegrationWire[]> {
    return (await this.integrations.list(me.accountId)).map(toIntegrationWire);
  }

  async one(me: AuthPrincipal, uid: number): Promise<IntegrationWire> {
    return toIntegrationWire(await this.require(me, uid));
  }

  async create(me: AuthPrincipal, dto: CreateIntegrationDto): Promise<CreatedIntegrationWire> {
    const changes = await this.checked(me, dto.kind, dto);
    if ((await this.integrations.count(me.accountId)) >= MAX_INTEGRATIONS_PER_ACCOUNT) {
      throw ApiException.of('LIMIT_REACHED', `an account has at most ${MAX_INTEGRATIONS_PER_ACCOUNT} integrations`);
    }
    const secret = dto.kind === 'webhook' ? generateWebhookSecret() : null;
    const row = await this.integrations.create(me.accountId, {
      kind: dto.kind,
      name: dto.name,
      url: changes.url!,
      events: dto.events,
      devices: changes.devices ?? null,
      enabled: dto.enabled ?? true,
      secretEncrypted: secret === null ? null : this.crypto.encrypt(secret),
      topic: dto.kind === 'mqtt' ? (dto.topic ?? DEFAULT_TOPIC_TEMPLATE) : null,
      qos: dto.kind === 'mqtt' ? (dto.qos ?? 1) : null,
      username: dto.username ?? null,
      passwordEncrypted: changes.passwordEncrypted ?? null,
    });
    return { ...toIntegrationWire(row), secret };
  }

  async update(me: AuthPrincipal, uid: number, dto: UpdateIntegrationDto): Promise<IntegrationWire> {
    const existing = await this.require(me, uid);
    for (const member of NOT_NULL) {
      if ((dto as Record<string, unknown>)[member] === null) throw ApiException.validation(member, `${member} must not be null`);
    }
    const changes = await this.checked(me, existing.kind, dto);
    const row = await this.integrations.update(me.accountId, uid, changes);
    if (!row) throw ApiException.notFound('integration', 'uid');
    if (changes.enabled === false) await this.released(uid);
    return toIntegrationWire(row);
  }

  async delete(me: AuthPrincipal, uid: number): Promise<{ uid: number; deleted: true }> {
    if (!(await this.integrations.delete(me.accountId, uid))) throw ApiException.notFound('integration', 'uid');
    await this.released(uid);
    return { uid, deleted: true };
  }

  async listDeliveries(me: AuthPrincipal, uid: number, q: DeliveriesQueryDto): Promise<DeliveryWire[]> {
    await this.require(me, uid);
    const rows = await this.deliveries.list(uid, { state: q.state ?? null, before: q.before ?? null, limit: q.limit ?? 100 });
    return rows.map(toDeliveryWire);
  }

  async redeliver(me: AuthPrincipal, uid: number, id: number): Promise<DeliveryWire> {
    await this.require(me, uid);
    const row = await this.deliveries.redeliver(uid, String(id));
    if (!row) throw ApiException.notFound('delivery', 'id');
    return toDeliveryWire(row);
  }

  /**
   * One signed test event, sent now and answered with how it went (docs/api.md §18): through the
   * worker's own sender, so the signature, the address checks at connection and the timeout are
   * those of real deliveries. Disabled integrations are tested too (before enabling one again);
   * nothing is stored, and the integration's health is left to real deliveries.
   */
  async test(me: AuthPrincipal, uid: number): Promise<TestSendWire> {
    await this.require(me, uid);
    const target = await this.integrations.target(uid);
    if (!target) throw ApiException.notFound('integration', 'uid');
    const outcome = await this.sender.test(target);
    return { delivered: outcome.ok, response_status: outcome.status, latency_ms: Math.round(outcome.latencyMs), error: outcome.error };
  }

  /**
   * Deleted or disabled (stored): the workers abandon their attempts to it in flight at once instead
   * of holding the account's lanes until each attempt's timeout. A notice lost on the way is made up
   * by each worker's check of what it holds, every second.
   */
  private async released(uid: number): Promise<void> {
    await this.bus.publish([{ kind: 'integration', integration: uid }]);
  }

  private async require(me: AuthPrincipal, uid: number) {
    const row = await this.integrations.find(me.accountId, uid);
    if (!row) throw ApiException.notFound('integration', 'uid');
    return row;
  }

  /** The members given, checked for the kind: the URL against the SSRF guard, the devices against the account. */
  private async checked(me: AuthPrincipal, kind: IntegrationKind, dto: UpdateIntegrationDto): Promise<IntegrationChanges> {
    if (kind === 'webhook') {
      const extra = MQTT_ONLY.find((m) => dto[m] !== undefined);
      if (extra) throw ApiException.validation(extra, `${extra} is a member of mqtt integrations only`);
    }
    const url = dto.url === undefined ? undefined : await this.checkedUrl(kind, dto.url);
    const changes: IntegrationChanges = {
      name: dto.name,
      url,
      events: dto.events,
      enabled: dto.enabled,
      topic: dto.topic === null ? DEFAULT_TOPIC_TEMPLATE : dto.topic,
      qos: dto.qos === null ? 1 : dto.qos,
      username: dto.username,
      passwordEncrypted: dto.password === undefined ? undefined : dto.password === null ? null : this.crypto.encrypt(dto.password),
    };
    if (dto.devices !== undefined) changes.devices = await this.devices(me, dto.devices);
    return changes;
  }

  /**
   * The URL as it will be called, checked: the WHATWG-parsed href is what is stored and shown (a URL
   * stored as given kept CR, LF, TAB and `\`, while the call went to the parsed one), a broker on a
   * port of another well-known service is refused (MQTT_ALLOWED_PORTS aside), and the SSRF guard
   * judges the address.
   */
  private async checkedUrl(kind: IntegrationKind, raw: string): Promise<string> {
    const allowedPorts = this.config.integrations.mqttAllowedPorts;
    const parsed = kind === 'webhook' ? parsedOutboundUrl(raw) : parseBrokerUrl(raw, allowedPorts);
    if (typeof parsed === 'string') throw ApiException.validation('url', `url ${parsed}`);
    const problem =
      kind === 'webhook'
        ? await outboundUrlProblem(parsed.href, this.config.outboundAllowPrivate)
        : await brokerUrlProblem(parsed.href, this.config.outboundAllowPrivate, allowedPorts);
    if (problem) throw ApiException.validation('url', `url ${problem}`);
    // Percent-encoding can lengthen it (a space is %20): the bound holds for what is stored.
    if (parsed.href.length > INTEGRATION_URL_MAX_LENGTH)
      throw ApiException.validation('url', `url must be at most ${INTEGRATION_URL_MAX_LENGTH} characters as parsed`);
    return parsed.href;
  }

  private async devices(me: AuthPrincipal, dto: DeviceFilterDto | null): Promise<DeviceFilterWire | null> {
    return checkedDeviceFilter(this.integrations, me.accountId, dto);
  }
}

/** A device filter with its EUIs normalised; an EUI the account cannot see is 404 (no existence oracle). */
export async function checkedDeviceFilter(
  lookup: Pick<IntegrationsRepository, 'unknownEuis'>,
  accountId: number,
  dto: DeviceFilterDto | null,
): Promise<DeviceFilterWire | null> {
  const filter = normalizeDeviceFilter(dto && { euis: dto.euis?.map((e) => normalizeEui(e)!), folder: dto.folder ?? null, tags: dto.tags ?? null });
  const unknown = await lookup.unknownEuis(accountId, filter?.euis ?? []);
  if (unknown.length > 0) throw ApiException.of('NOT_FOUND', `device ${unknown[0]} not found`, 'devices.euis');
  return filter;
}
