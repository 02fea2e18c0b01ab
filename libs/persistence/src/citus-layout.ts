/**
 * How the schema spreads over a Citus cluster (docs/scaling.md, "PostgreSQL past one machine"):
 * every table of `schema_migrations`' making, by kind. `citus-layout.int-spec.ts` holds the schema
 * to Citus's documented rules for this layout, and fails for a table that is not listed here: a
 * new table is placed on purpose, and a key or foreign key that a distributed cluster could not
 * keep is found when it is written, not when a cluster is built.
 *
 * - `distributed`: sharded by the device (`device_id`), all co-located, so that everything about one
 *   device is on one shard and a read of one device's history, rollups or cache is a router query.
 *   These are the tables that grow with the telemetry.
 * - `reference`: copied to every node; small, read with every device row (datamodel, accounts,
 *   devices themselves: a distributed table's foreign key may only point at one of these).
 * - `local`: kept on the coordinator (Citus local tables): per-account state that grows slowly, or
 *   is ordered across devices (the outbox).
 */
export const CITUS_DISTRIBUTION_COLUMN = 'device_id';

export const CITUS_LAYOUT = {
  distributed: ['uplinks', 'uplink_gateways', 'uplink_rollups_hourly', 'uplink_rollups_daily', 'rollup_backfill', 'data_cache', 'data_cache_chunks'],
  reference: ['accounts', 'devices', 'networks', 'network_types', 'decoders', 'device_types', 'device_models', 'manufacturers', 'data_types', 'icons'],
  local: [
    'schema_migrations',
    'api_tokens',
    'sessions',
    'password_resets',
    'rate_limits',
    'feedback',
    'device_shares',
    'device_handovers',
    'fences',
    'commands',
    'images',
    'image_blobs',
    'integrations',
    'integration_deliveries',
    'integration_lanes',
    'events',
    'alert_rules',
    'alerts',
    'rule_states',
    'email_verifications',
    'mail_counts',
    'alert_mail_digests',
    'alert_mails',
    'organisation_members',
    'organisation_invitations',
    'oidc_identities',
    'dashboards',
    // Across every account, in time order, written after each call: the coordinator's.
    'audit_events',
  ],
} as const satisfies Record<'distributed' | 'reference' | 'local', readonly string[]>;

export type CitusKind = keyof typeof CITUS_LAYOUT;
