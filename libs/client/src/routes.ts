/**
 * Every route the client calls, as the router names it (`GET /routes` lists the same method and
 * path template). The client's methods call through this table only, so the exported list cannot
 * leave out a route a method uses; apps/api/test/client.e2e-spec.ts compares it with the server's.
 */
import { INGEST_NETWORKS, ingestRouteOf } from '@dts/domain';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface ClientRoute<P extends string = string> {
  readonly method: HttpMethod;
  readonly path: P;
}

const route = <P extends string>(method: HttpMethod, path: P): ClientRoute<P> => Object.freeze({ method, path });

export const ROUTES = {
  // Accounts
  authRegister: route('POST', '/auth/register'),
  authDeleteAccount: route('DELETE', '/auth/register'),
  authLogin: route('POST', '/auth/login'),
  authLogout: route('POST', '/auth/logout'),
  authCheck: route('POST', '/auth/check'),
  authEcho: route('GET', '/auth/echo'),
  authRestore: route('POST', '/auth/restore'),
  authPasswordChange: route('POST', '/auth/pwdchange'),
  authVerifyEmail: route('POST', '/auth/verify'),
  authOidcProviders: route('GET', '/auth/oidc'),
  userMe: route('GET', '/user'),
  userUpdate: route('PATCH', '/user'),
  userRequestVerification: route('POST', '/user/email/verify'),
  userState: route('GET', '/user/state'),
  // API tokens
  tokensList: route('GET', '/user/token'),
  tokensCreate: route('POST', '/user/token'),
  tokensDelete: route('DELETE', '/user/token'),
  // Sessions
  sessionActive: route('GET', '/session/active'),
  sessionCookie: route('GET', '/session/cookie'),
  sessionAttributes: route('GET', '/session/attributes'),
  userSessionsList: route('GET', '/user/session'),
  userSessionsEndOthers: route('DELETE', '/user/session'),
  userSessionsEnd: route('DELETE', '/user/session/{id}'),
  // Devices
  devicesList: route('GET', '/user/device'),
  devicesAutocomplete: route('GET', '/user/device/autocomplete'),
  devicesRegister: route('POST', '/user/device/{eui}'),
  devicesImport: route('POST', '/user/device/import'),
  devicesRemove: route('DELETE', '/user/device/{eui}'),
  devicesRelation: route('GET', '/user/device/result/{eui}/{uid}'),
  devicesShares: route('GET', '/user/device/share/{eui}'),
  devicesShare: route('POST', '/user/device/share/{eui}'),
  handoversList: route('GET', '/user/device/handover'),
  handoversOffer: route('POST', '/user/device/handover/{eui}'),
  handoversAccept: route('POST', '/user/device/handover/{eui}/accept'),
  handoversDecline: route('POST', '/user/device/handover/{eui}/decline'),
  handoversWithdraw: route('DELETE', '/user/device/handover/{eui}'),
  devicesUnshare: route('DELETE', '/user/device/share/{eui}/{uid}'),
  devicesDataTypes: route('GET', '/user/device/data/type/all'),
  // Device metadata
  metaAll: route('GET', '/user/device/meta/all'),
  metaGet: route('GET', '/user/device/meta/{eui}'),
  metaUpdate: route('POST', '/user/device/meta/{eui}'),
  // Account overview and console settings
  userOverview: route('GET', '/user/overview'),
  userActivity: route('GET', '/user/activity'),
  uiConfig: route('GET', '/ui/config'),
  // Datamodel
  datamodelAll: route('GET', '/datamodel'),
  datamodelNetworks: route('GET', '/datamodel/network'),
  datamodelNetwork: route('GET', '/datamodel/network/{uid}'),
  datamodelNetworkTypes: route('GET', '/datamodel/network/type'),
  datamodelNetworksByType: route('GET', '/datamodel/network/by_type/{uid}'),
  datamodelDecoders: route('GET', '/datamodel/decoder'),
  datamodelDecoder: route('GET', '/datamodel/decoder/{decoder_id}'),
  datamodelDataTypes: route('GET', '/datamodel/data/type/all'),
  datamodelDataType: route('GET', '/datamodel/data/type/{type_id}'),
  datamodelIcons: route('GET', '/datamodel/icon'),
  datamodelDeviceTypes: route('GET', '/datamodel/device/type'),
  // Fences and gateways
  fencesList: route('GET', '/user/fence'),
  fencesGet: route('GET', '/user/fence/{uid}'),
  fencesCreate: route('POST', '/user/fence'),
  fencesRemove: route('DELETE', '/user/fence/{uid}'),
  fencesUpdate: route('PATCH', '/user/fence/{uid}'),
  fencesDevices: route('GET', '/user/fence/{uid}/devices'),
  gatewaysList: route('GET', '/user/gateways'),
  gatewaysByNetwork: route('GET', '/user/gateways/{network_ref}'),
  // Dashboards
  dashboardsList: route('GET', '/user/dashboard'),
  dashboardsGet: route('GET', '/user/dashboard/{uid}'),
  dashboardsCreate: route('POST', '/user/dashboard'),
  dashboardsUpdate: route('PATCH', '/user/dashboard/{uid}'),
  dashboardsRemove: route('DELETE', '/user/dashboard/{uid}'),
  // Ingestion
  ingestImage: route('POST', '/ingest/image'),
  // Uplinks and data
  uplinksTable: route('GET', '/user/device/table/{eui}'),
  uplinksData: route('GET', '/user/device/data/{eui}'),
  uplinksTest: route('GET', '/test/uplink/{eui}'),
  uplinksSimulate: route('POST', '/user/device/uplink/{eui}/simulate'),
  uplinksLive: route('GET', '/user/device/live/{eui}'),
  uplinksSeries: route('GET', '/user/device/series/{eui}'),
  accountLive: route('GET', '/user/live'),
  // Codecs
  codecsList: route('GET', '/user/codec'),
  codecsCreate: route('POST', '/user/codec'),
  codecsRemove: route('DELETE', '/user/codec/{uid}'),
  codecsGet: route('GET', '/user/codec/{uid}'),
  codecsUpdate: route('PATCH', '/user/codec/{uid}'),
  codecsImport: route('POST', '/user/codec/import'),
  codecsTry: route('POST', '/user/codec/try'),
  // Commands
  commandsList: route('GET', '/user/device/command/{eui}'),
  commandsAvailable: route('GET', '/user/device/command/{eui}/available'),
  commandsCreate: route('POST', '/user/device/command/{eui}'),
  commandsCancel: route('DELETE', '/user/device/command/{eui}/{uid}'),
  commandsFlush: route('DELETE', '/user/device/command/{eui}'),
  // Networks
  networksList: route('GET', '/user/network'),
  networksCreate: route('POST', '/user/network'),
  networksRemove: route('DELETE', '/user/network/{uid}'),
  // Images
  imagesList: route('GET', '/user/device/image/{eui}'),
  imagesGallery: route('GET', '/user/image'),
  imagesLabels: route('GET', '/user/image/labels'),
  imagesThumb: route('GET', '/user/device/image/{eui}/{image_hash}/thumb'),
  imagesUpload: route('POST', '/user/device/image/{eui}'),
  imagesGet: route('GET', '/user/device/image/{eui}/{image_hash}'),
  imagesRemove: route('DELETE', '/user/device/image/{eui}/{image_hash}'),
  imagesAnnotate: route('POST', '/user/device/image/{eui}/{image_hash}/annotations'),
  imagesFile: route('GET', '/files/image/{image_hash}'),
  // Integrations
  integrationsList: route('GET', '/user/integration'),
  integrationsGet: route('GET', '/user/integration/{uid}'),
  integrationsCreate: route('POST', '/user/integration'),
  integrationsUpdate: route('PATCH', '/user/integration/{uid}'),
  integrationsRemove: route('DELETE', '/user/integration/{uid}'),
  integrationsDeliveries: route('GET', '/user/integration/{uid}/deliveries'),
  integrationsRedeliver: route('POST', '/user/integration/{uid}/deliveries/{id}/redeliver'),
  integrationsTest: route('POST', '/user/integration/{uid}/test'),
  // Alert rules and alerts
  rulesList: route('GET', '/user/rule'),
  rulesGet: route('GET', '/user/rule/{uid}'),
  rulesCreate: route('POST', '/user/rule'),
  rulesUpdate: route('PATCH', '/user/rule/{uid}'),
  rulesRemove: route('DELETE', '/user/rule/{uid}'),
  alertsList: route('GET', '/user/alert'),
  alertsGet: route('GET', '/user/alert/{uid}'),
  alertsAcknowledge: route('POST', '/user/alert/{uid}/ack'),
  // Cache (admin)
  cacheStatus: route('GET', '/cache/status'),
  cacheEntries: route('GET', '/cache/entries'),
  cacheEntry: route('GET', '/cache/status/{eui}'),
  cacheInvalidate: route('POST', '/cache/invalidate/{eui}'),
  cacheInvalidateAll: route('POST', '/cache/invalidate/all'),
  // System
  systemVersion: route('GET', '/version'),
  systemRoutes: route('GET', '/routes'),
  systemFeedback: route('POST', '/feedback'),
  healthLive: route('GET', '/health/live'),
  healthReady: route('GET', '/health/ready'),
  metrics: route('GET', '/metrics'),
  metricsCluster: route('GET', '/metrics/cluster'),
  // Admin
  adminInfo: route('GET', '/admin/info'),
  adminAccounts: route('GET', '/admin/accounts'),
  adminAccountUpdate: route('PATCH', '/admin/accounts/{id}'),
  adminAccountPasswordReset: route('POST', '/admin/accounts/{id}/password-reset'),
  adminAccountDelete: route('DELETE', '/admin/accounts/{id}'),
  adminAudit: route('GET', '/admin/audit'),
  adminAccountMembers: route('GET', '/admin/accounts/{id}/members'),
  // Organisations (docs/api.md §20)
  orgList: route('GET', '/org'),
  orgCreate: route('POST', '/org'),
  orgGet: route('GET', '/org/{uid}'),
  orgUpdate: route('PATCH', '/org/{uid}'),
  orgDelete: route('DELETE', '/org/{uid}'),
  orgMembers: route('GET', '/org/{uid}/member'),
  orgAddMember: route('POST', '/org/{uid}/member'),
  orgUpdateMember: route('PATCH', '/org/{uid}/member/{account}'),
  orgRemoveMember: route('DELETE', '/org/{uid}/member/{account}'),
  orgInvitations: route('GET', '/org/{uid}/invitation'),
  orgInvite: route('POST', '/org/{uid}/invitation'),
  orgWithdrawInvitation: route('DELETE', '/org/{uid}/invitation/{invitation}'),
  orgAudit: route('GET', '/org/{uid}/audit'),
  invitationsList: route('GET', '/user/invitation'),
  invitationsAccept: route('POST', '/user/invitation/{uid}/accept'),
  invitationsDecline: route('POST', '/user/invitation/{uid}/decline'),
} as const;

/**
 * Each network's ingest route by the network's kind, read from the registry (libs/domain
 * networks/registry.ts) as the api's routes are: a network added there is reachable here.
 */
export const INGEST_ROUTES: Readonly<Record<string, ClientRoute>> = Object.freeze(
  Object.fromEntries(
    INGEST_NETWORKS.map((n) => {
      const { method, path } = ingestRouteOf(n.ingest);
      return [n.kind, route(method, path)];
    }),
  ),
);

/** Machine-readable list of the routes the client covers: `{method, path}` with `{param}` templates. */
export const CLIENT_ROUTES: readonly ClientRoute[] = Object.freeze([...Object.values(ROUTES), ...Object.values(INGEST_ROUTES)]);

/** The `{name}` parameters of a path template, as an object type. */
export type PathParams<P extends string> = P extends `${string}{${infer K}}${infer Rest}` ? { [N in K]: string | number } & PathParams<Rest> : unknown;

export function fillPath<P extends string>(template: P, params: PathParams<P>): string {
  return template.replace(/\{([A-Za-z_]+)\}/g, (_, name: string) => {
    const value = (params as Record<string, string | number | undefined>)[name];
    if (value === undefined) throw new TypeError(`${template}: missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}
