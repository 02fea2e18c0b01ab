/**
 * Every tag an operation may carry, with what it groups (the OpenAPI document declares each one;
 * generators name their client classes after them). An operation tagged with a name missing here
 * fails the OpenAPI check (apps/api/test/openapi.e2e-spec.ts): add the tag here with its line.
 */
export const API_TAGS: Readonly<Record<string, string>> = {
  auth: 'Accounts, sessions and passwords: register, log in and out, check credentials, reset and change a password (docs/api.md §3).',
  account: 'The caller’s own account and its overview.',
  tokens: 'API tokens of the account (docs/api.md §3).',
  session: 'The current session: whether it is active, its cookie, its attributes.',
  devices: 'Devices and their metadata, sharing and hand-over (docs/api.md §4, §17).',
  data: 'Uplinks, measurement rows, exports, aggregated series and the live feed (docs/api.md §5, §14).',
  commands: 'Downlink commands: send, list, cancel (docs/api.md §6).',
  images: 'Camera-trap images and their annotations (docs/api.md §7).',
  fences: 'Geofences: GeoJSON polygons (docs/api.md §8).',
  gateways: 'The gateways that heard the account’s devices.',
  datamodel: 'Enumerations: networks, decoders, data types, icons, device types (docs/api.md §8).',
  networks: 'The account’s own networks: ChirpStack, The Things Stack, HTTP JSON (docs/api.md §12, §16).',
  codecs: 'The account’s own JavaScript codecs (docs/api.md §13).',
  ingest: 'Where networks deliver uplinks and events, with the ingest secret or an API token (docs/api.md §5, §11).',
  integrations: 'Outbound events: webhooks and MQTT, with their deliveries (docs/api.md §18).',
  alerts: 'Alert rules and the alerts they raise (docs/api.md §19).',
  dashboards: 'Dashboards of widgets over the account’s devices, private or shared with the organisation by role (docs/api.md §21).',
  organisations: 'Organisations, their members, roles, invitations and audit log; invitations to the caller (docs/api.md §20).',
  feedback: 'Feedback from users.',
  cache: 'The per-device data cache (administrators).',
  admin: 'Service information for administrators.',
  system: 'Version, route list, metrics.',
  health: 'Liveness and readiness for load balancers and orchestrators.',
};
