import { invitationsApi, organisationsApi } from './resources/organisations';
import type { ClientRoute } from './routes';
import { type ApiResponse, type DeviceTelemetryClientOptions, type RequestOptions, Transport } from './transport';
import { authApi, sessionsApi, tokensApi, userApi } from './resources/account';
import { alertsApi, integrationsApi, rulesApi } from './resources/automation';
import { commandsApi } from './resources/commands';
import { dashboardsApi } from './resources/dashboards';
import { codecsApi, ingestApi, networksApi, uplinksApi } from './resources/data';
import { datamodelApi, devicesApi, fencesApi, gatewaysApi, handoversApi, metaApi } from './resources/devices';
import { imagesApi } from './resources/images';
import { adminApi, cacheApi, systemApi } from './resources/system';

// The types the resources speak, importable from './client' as before the resources moved out.
export type { LiveEvent } from './resources/live';
export type { ImageFile, UploadOptions } from './resources/images';
export type { Bytes } from './resources/request-helpers';
export type { HealthWire } from './resources/system';

/**
 * A typed client of the Device Telemetry Service. Every method returns the envelope's `data`
 * (typed with the wire types of @dts/domain) or throws an {@link ApiError} carrying the status and
 * the envelope's errors. `client.request(ROUTES.x, …)` gives the whole envelope when meta or
 * messages matter.
 *
 * ```ts
 * const client = new DeviceTelemetryClient({ baseUrl: 'http://localhost:3000', token });
 * await client.devices.register('70B3D57ED0000001', { label: 'Trap 1' });
 * ```
 */
export class DeviceTelemetryClient {
  private readonly t: Transport;

  readonly auth: ReturnType<typeof authApi>;
  readonly user: ReturnType<typeof userApi>;
  readonly tokens: ReturnType<typeof tokensApi>;
  readonly sessions: ReturnType<typeof sessionsApi>;
  readonly devices: ReturnType<typeof devicesApi>;
  /** Hand-over by consent: the owner offers, the receiving account accepts or declines. */
  readonly handovers: ReturnType<typeof handoversApi>;
  readonly meta: ReturnType<typeof metaApi>;
  readonly datamodel: ReturnType<typeof datamodelApi>;
  readonly fences: ReturnType<typeof fencesApi>;
  /** Dashboards of widgets, private or shared by role (docs/api.md §21). */
  readonly dashboards: ReturnType<typeof dashboardsApi>;
  readonly gateways: ReturnType<typeof gatewaysApi>;
  /** Ingestion: with `ingestSecret` the platform secret, else the account's token (its own devices only). */
  readonly ingest: ReturnType<typeof ingestApi>;
  readonly uplinks: ReturnType<typeof uplinksApi>;
  readonly codecs: ReturnType<typeof codecsApi>;
  readonly commands: ReturnType<typeof commandsApi>;
  readonly networks: ReturnType<typeof networksApi>;
  readonly images: ReturnType<typeof imagesApi>;
  /** Admin accounts only. */
  readonly integrations: ReturnType<typeof integrationsApi>;
  readonly rules: ReturnType<typeof rulesApi>;
  readonly alerts: ReturnType<typeof alertsApi>;
  readonly cache: ReturnType<typeof cacheApi>;
  readonly system: ReturnType<typeof systemApi>;
  /** Admin accounts only. */
  readonly admin: ReturnType<typeof adminApi>;
  /** Organisations, members and invitations (docs/api.md §20). */
  readonly organisations: ReturnType<typeof organisationsApi>;
  readonly invitations: ReturnType<typeof invitationsApi>;

  constructor(readonly options: DeviceTelemetryClientOptions) {
    this.t = new Transport(options);
    this.auth = authApi(this.t);
    this.user = userApi(this.t);
    this.tokens = tokensApi(this.t);
    this.sessions = sessionsApi(this.t);
    this.devices = devicesApi(this.t);
    this.handovers = handoversApi(this.t);
    this.meta = metaApi(this.t);
    this.datamodel = datamodelApi(this.t);
    this.fences = fencesApi(this.t);
    this.dashboards = dashboardsApi(this.t);
    this.gateways = gatewaysApi(this.t);
    this.ingest = ingestApi(this.t);
    this.uplinks = uplinksApi(this.t);
    this.codecs = codecsApi(this.t);
    this.commands = commandsApi(this.t);
    this.networks = networksApi(this.t);
    this.images = imagesApi(this.t);
    this.integrations = integrationsApi(this.t);
    this.rules = rulesApi(this.t);
    this.alerts = alertsApi(this.t);
    this.cache = cacheApi(this.t);
    this.system = systemApi(this.t);
    this.admin = adminApi(this.t);
    this.organisations = organisationsApi(this.t);
    this.invitations = invitationsApi(this.t);
  }

  /** The organisation this client acts in (sent as X-Organisation); undefined: the person's own account. */
  get organisation(): string | undefined {
    return this.t.organisation;
  }

  /** Acts in another organisation from the next request on (a console switching); `with({ organisation })` makes a second client instead. */
  actIn(organisation: string | undefined): void {
    this.t.organisation = organisation;
  }

  /** The session cookie this client sends (after `auth.login()`, or as given). */
  get cookie(): string | undefined {
    return this.t.cookie;
  }

  /** The same service with other credentials (e.g. the token just created). */
  with(options: Partial<DeviceTelemetryClientOptions>): DeviceTelemetryClient {
    return new DeviceTelemetryClient({ ...this.options, organisation: this.t.organisation, cookie: this.t.cookie, ...options });
  }

  /** Any route of the table, with the whole successful envelope. */
  request<T, M = unknown, P extends string = string>(route: ClientRoute<P>, options?: RequestOptions<P>): Promise<ApiResponse<T, M>> {
    return this.t.request<T, M, P>(route, options);
  }
}
