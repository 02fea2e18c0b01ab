// Limit of figure 14 (route-mix): every route of the mix served with the round trips the service
// makes for it — the same SQL (the table SQL below, as named prepared statements), the same Redis
// commands, the same caching — and nothing else: no request log, no metrics, no validation
// framework, no guards. FLAVOUR=express (the default) serves them on the project's own Express 5,
// one `app.get/post` per route and `express.json()` for the POST bodies: what the goal is
// measured against. FLAVOUR=raw serves them on bare `node:http`, a router of its own.
//
// What every route shares, as the service does it:
// - the API token: its SHA-256 digest looked up with its account (SQL.credential) once, then kept
//   in a map for 30 s (apps/api/src/common/auth/credential-cache.ts, CREDENTIAL_CACHE_TTL_MS);
// - the per-account budget, counted as BatchedThrottlerStorage counts it
//   (apps/api/src/common/throttling/batched-throttler.storage.ts): a key's first hit in a window in
//   the shared store before the answer, then counted here and sent every 100 ms, many in one call —
//   on Redis rate-limiter-flexible's RateLimiterRedis (the service's RedisSharedCounters, same key),
//   without Redis the service's upsert (SQL.rateLimit);
// - live notices (libs/persistence/src/live/live-bus.ts): PUBLISH on `<prefix>:live`, or
//   pg_notify on `dts_live` without Redis, and this process subscribed to them as the service is;
// - the audit log of state-changing calls (apps/api/src/common/audit/audit-log.ts): records held
//   and written every 200 ms, one INSERT for many (SQL.audit).
//
// Env: DATABASE_URL, or DATA_DIR to open the embedded database with the service's own server from
// dist/; REDIS_URL and REDIS_PREFIX (this server's rate-limit, live and queue keys); CACHE_PREFIX:
// the api's REDIS_PREFIX, whose data cache chunks route 6 reads (the cache is the api's: it is
// built by the api's worker, and read here as the api reads it); TOKEN_ENCRYPTION_KEY (the api's,
// to show the tokens' values); PORT. Route 6 answers with `X-Limit-Cache: hit|miss`, so that the
// figure can check that the limit served it from the cache.
import { createDecipheriv, createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import pg from 'pg';

const require = createRequire(import.meta.url);
const dist = (file) => require(join(process.cwd(), 'dist', file));
const domain = dist('libs/domain/src/index.js');
// The service's own pure parts, so that the limit maps rows and batches commits exactly as it does.
const { toDeviceMetaWire } = dist('apps/api/src/modules/devices/device.mapper.js');
const { toAccountWire } = dist('apps/api/src/modules/user/user.mapper.js');
const { toApiTokenWire } = dist('apps/api/src/modules/tokens/token.mapper.js');
const { GroupCommit } = dist('libs/persistence/src/uplinks/group-commit.js');
const { packLiveNotices } = dist('libs/persistence/src/live/live-notices.js');
const { cutoffDay } = dist('libs/persistence/src/timeseries/partition-bounds.js');
const { STORE_UPLINKS_SQL, LIVE_DEVICES_SQL } = dist('libs/persistence/src/uplinks/store-uplinks.sql.js');
const { dataJsonSql } = dist('libs/persistence/src/uplinks/uplink-reads.repository.js');

const FLAVOUR = process.env.FLAVOUR ?? 'express';
const REDIS_URL = process.env.REDIS_URL ?? null;
const PREFIX = process.env.REDIS_PREFIX ?? 'dts';
const CACHE_PREFIX = process.env.CACHE_PREFIX ?? PREFIX;
const TOKEN_KEY = Buffer.from(process.env.TOKEN_ENCRYPTION_KEY ?? '', 'hex');
/** UPLINK_RETENTION_DAYS: unset in the bench, as for the api. */
const PLATFORM_RETENTION_DAYS = null;
const CREDENTIAL_TTL_MS = 30_000;
const RATE_LIMIT = 1_000_000_000; // the bench's RATE_LIMIT_PER_MINUTE: lifted, still counted
const RATE_WINDOW_MS = 60_000;
const RATE_SYNC_MS = 100;
const AUDIT_FLUSH_MS = 200;
const READ_BATCH = 2_000; // uplink-reads.repository.ts READ_BATCH: the uncached read's first batch
const ENVELOPE_HEAD = '{"errors":[],"debug":[],"meta":[],"messages":[],"data":';
const ENVELOPE_TAIL = ',"success":true}';

/**
 * Every statement the routes send, by route, as the service sends them today (captured with
 * `log_statement = 'all'` on the bench database and `redis-cli MONITOR`, December 2026). Where the
 * service builds a statement in code, the limit takes it from the same code in dist/.
 */
const SQL = {
  // Every route, once per token per 30 s: Authenticator.byToken → TokensRepository.findCredential
  // (libs/persistence/src/tokens/tokens.repository.ts, CREDENTIAL).
  credential: `SELECT t.uid AS "tokenUid", t.type AS "tokenType", t.enabled AS "tokenEnabled", t.until AS "tokenUntil",
          a.id AS "accountId", a.username, a.groupid, a.active AS "accountActive", t.created_by AS "createdBy",
          coalesce(c.active, 1) AS "creatorActive", CASE WHEN t.created_by IS NULL THEN 'owner' ELSE m.role END AS role,
          a.kind = 'organisation' AS organisation, t.rights
   FROM api_tokens t JOIN accounts a ON a.id = t.account_id
   LEFT JOIN accounts c ON c.id = t.created_by
   LEFT JOIN organisation_members m ON m.organisation_id = t.account_id AND m.account_id = t.created_by
   WHERE t.digest = $1`,
  // Every route without Redis, at most once per 100 ms per account: PgSharedCounters →
  // RateLimitsRepository.increment (libs/persistence/src/rate-limits/rate-limits.repository.ts).
  rateLimit: `WITH hit AS (
           INSERT INTO rate_limits AS r (key, hits, expires_at) VALUES ($1, $5, now() + $2 * interval '1 millisecond')
           ON CONFLICT (key) DO UPDATE SET
             hits = CASE WHEN r.expires_at <= now() THEN $5 ELSE r.hits + $5 END,
             expires_at = CASE WHEN r.expires_at <= now() THEN EXCLUDED.expires_at ELSE r.expires_at END,
             blocked_until = CASE
               WHEN r.blocked_until > now() THEN r.blocked_until
               WHEN (CASE WHEN r.expires_at <= now() THEN $5 ELSE r.hits + $5 END) > $3 THEN now() + $4 * interval '1 millisecond'
               ELSE NULL END
           RETURNING hits, expires_at, blocked_until)
         SELECT hits,
                ceil(extract(epoch FROM (expires_at - now())))::int AS ttl,
                ceil(extract(epoch FROM (expires_at - now())) * 1000)::int AS ttl_ms,
                coalesce(ceil(extract(epoch FROM (blocked_until - now())))::int, 0) AS block_ttl
         FROM hit`,
  // Routes 1 and 10, GET /user/device (own, or an organisation's key): DevicesRepository LIST_EUIS.
  deviceEuis: `SELECT d.eui FROM devices d WHERE d.deleted_at IS NULL AND (d.owner_id = $1 OR EXISTS (SELECT 1 FROM device_shares s WHERE s.device_id = d.uid AND s.account_id = $1)) ORDER BY d.eui`,
  // Route 2, GET /user: UserService.me → AccountsRepository.findById (TypeORM's findOne, as it renders it).
  account: `SELECT "AccountEntity"."id" AS "AccountEntity_id", "AccountEntity"."username" AS "AccountEntity_username", "AccountEntity"."username_key" AS "AccountEntity_username_key", "AccountEntity"."email" AS "AccountEntity_email", "AccountEntity"."email_key" AS "AccountEntity_email_key", "AccountEntity"."email_verified_at" AS "AccountEntity_email_verified_at", "AccountEntity"."email_pending" AS "AccountEntity_email_pending", "AccountEntity"."fullname" AS "AccountEntity_fullname", "AccountEntity"."password_hash" AS "AccountEntity_password_hash", "AccountEntity"."consent" AS "AccountEntity_consent", "AccountEntity"."active" AS "AccountEntity_active", "AccountEntity"."groupid" AS "AccountEntity_groupid", "AccountEntity"."kind" AS "AccountEntity_kind", "AccountEntity"."created_at" AS "AccountEntity_created_at", "AccountEntity"."last_login_at" AS "AccountEntity_last_login_at", "AccountEntity"."subscription" AS "AccountEntity_subscription", "AccountEntity"."expires_on" AS "AccountEntity_expires_on", "AccountEntity"."max_devices" AS "AccountEntity_max_devices", "AccountEntity"."login_count" AS "AccountEntity_login_count", "AccountEntity"."uplink_retention_days" AS "AccountEntity_uplink_retention_days" FROM "accounts" "AccountEntity" WHERE (("AccountEntity"."id" = $1)) LIMIT 1`,
  // Route 3, GET /user/device/meta/{eui}: DeviceMetaService.one → the device-meta repository's one-device read.
  deviceMeta: `SELECT d.uid, d.eui, d.owner_id, d.user_ref, d.label, d.folder, d.tags, d.type_ref, d.decoder_ref, d.network_ref,
         d.icon_ref, d.installation_lat, d.installation_lon, d.lat, d.lon, d.alt, d.battery_percent, d.battery_voltage,
         d.temperature_dc, d.signal_percent, d.signal_dbm, d.margin_db, d.firmware_version, d.ts_activity_first,
         d.ts_activity_last, d.ts_data_first, d.ts_data_last, d.uplink_retention_days, a.username AS owner_username,
         nt.type AS network_type, a.uplink_retention_days AS account_retention_days
    FROM devices d
    JOIN accounts a ON a.id = d.owner_id
    LEFT JOIN networks n ON n.uid = d.network_ref
    LEFT JOIN network_types nt ON nt.uid = n.type_ref WHERE d.deleted_at IS NULL AND (d.owner_id = $1 OR EXISTS (SELECT 1 FROM device_shares s WHERE s.device_id = d.uid AND s.account_id = $1)) AND d.eui = $2 ORDER BY d.eui`,
  // Route 4, GET /user/token: TokensService.list → TokensRepository.listActive (TypeORM's QueryBuilder, as it renders it).
  tokens: `SELECT "t"."uid" AS "t_uid", "t"."account_id" AS "t_account_id", "t"."digest" AS "t_digest", "t"."value_encrypted" AS "t_value_encrypted", "t"."type" AS "t_type", "t"."name" AS "t_name", "t"."meta" AS "t_meta", "t"."enabled" AS "t_enabled", "t"."created_at" AS "t_created_at", "t"."until" AS "t_until", "t"."created_by" AS "t_created_by", "t"."rights" AS "t_rights" FROM "api_tokens" "t" WHERE "t"."account_id" = $1 AND "t"."enabled" = 1 AND ("t"."until" IS NULL OR "t"."until" > now()) ORDER BY "t"."uid" ASC`,
  // Routes 5, 6, 7 and 9, first: DeviceAccessService.require (the caller's device by EUI).
  deviceAccess: `SELECT d.uid, d.eui, d.owner_id, d.decoder_ref FROM devices d WHERE d.eui = $2 AND d.deleted_at IS NULL AND (d.owner_id = $1 OR EXISTS (SELECT 1 FROM device_shares s WHERE s.device_id = d.uid AND s.account_id = $1))`,
  // Route 5, GET /user/device/command/{eui}?limit=10: CommandsRepository.list.
  commandList: `SELECT c.uid, c.device_id, d.eui, c.created_at, c.status, n.name AS network, c.network_ref, c.confirmed, c.port, c.payload, c.network_id, c.reason
    FROM commands c JOIN devices d ON d.uid = c.device_id LEFT JOIN networks n ON n.uid = c.network_ref
         WHERE c.device_id = $1 AND ($2::text[] IS NULL OR c.status = ANY($2::text[]))
           
           AND ($3::bigint IS NULL OR (c.created_at, c.uid) < (SELECT b.created_at, b.uid FROM commands b WHERE b.uid = $3::bigint AND b.device_id = $1))
         ORDER BY c.created_at DESC, c.uid DESC LIMIT $4`,
  // Route 6, GET /user/device/data/{eui} (cached): DataCacheService.fresh → DataCacheRepository.status,
  // then the chunks (Redis GET <prefix>:cache:<device>:<version>:<n>, or this statement without Redis)
  // until one is missing; between them UplinksService.withRetention (SQL.retention).
  cacheStatus: `SELECT version, built_version, rows, bytes, built_at FROM data_cache WHERE device_id = $1`,
  cacheChunk: `SELECT body FROM data_cache_chunks WHERE device_id = $1 AND version = $2 AND chunk = $3`,
  // Routes 6 and 7: RetentionRepository.ofDevice, for the retention headers.
  retention: `SELECT coalesce(a.uplink_retention_days, $1::int) AS "accountDays", least(d.uplink_retention_days, coalesce(a.uplink_retention_days, $1::int)) AS "effectiveDays"
         FROM devices d JOIN accounts a ON a.id = d.owner_id WHERE d.uid = $2`,
  // Route 7, GET /user/device/data/{eui}?limit=10 (uncached): UplinkReadsRepository.dataJson, the rows'
  // JSON written by PostgreSQL (dataJsonSql, from dist/).
  dataJson: dataJsonSql('asc', false),
  // Route 8, POST /ingest/rest: IngestRepository — the device by EUI once (then cached, as
  // IngestTargetsCache keeps it), the group commit's one statement, then (not awaited) the
  // simulated network's downlinks at the uplink (CommandsRepository.simulatedUplinks), then the
  // live notice. Both long statements from dist/ (store-uplinks.sql.ts).
  ingestDevices: LIVE_DEVICES_SQL,
  ingestStore: STORE_UPLINKS_SQL,
  simulatedUplinks: `WITH acknowledged AS (
           UPDATE commands c SET status = 'Acknowledged', updated_at = now()
           WHERE c.device_id = ANY($1::int[]) AND c.network_ref = 1 AND c.status = 'Sent' AND c.confirmed
           RETURNING c.uid, c.device_id
         ),
         head AS (
           SELECT DISTINCT ON (device_id) uid FROM commands
           WHERE device_id = ANY($1::int[]) AND network_ref = 1 AND status = 'Scheduled'
           ORDER BY device_id, created_at, uid
         ),
         sent AS (
           UPDATE commands c SET status = 'Sent', updated_at = now() FROM head
           WHERE c.uid = head.uid AND c.status = 'Scheduled'
           RETURNING c.uid, c.device_id
         )
         SELECT uid, device_id FROM acknowledged UNION ALL SELECT uid, device_id FROM sent`,
  // Route 9, POST /user/device/command/{eui}: CommandsService.create — access, CommandsRepository.target,
  // create, the new row (commandById); then the dispatch job (BullMQ add) and the live notice; the
  // audit record. The in-process worker's dispatch (CommandDispatchProcessor): forDispatch, the
  // simulated network's send (no round trip: the record is its queue), advance to Scheduled, notice.
  commandTarget: `SELECT c.uid AS decoder_uid, c.name AS decoder_name, c.script, d.network_ref, n.adapter
         FROM devices d LEFT JOIN decoders c ON c.uid = d.decoder_ref LEFT JOIN networks n ON n.uid = d.network_ref WHERE d.uid = $1`,
  commandCreate: `INSERT INTO commands (device_id, created_by, status, network_ref, confirmed, port, payload, name, params)
         VALUES ($1, $2, 'Created', $3, $4, $5, $6, $7, $8) RETURNING uid`,
  commandById: `SELECT c.uid, c.device_id, d.eui, c.created_at, c.status, n.name AS network, c.network_ref, c.confirmed, c.port, c.payload, c.network_id, c.reason
    FROM commands c JOIN devices d ON d.uid = c.device_id LEFT JOIN networks n ON n.uid = c.network_ref WHERE c.uid = $1`,
  commandForDispatch: `SELECT c.uid, c.device_id, d.eui, c.created_at, c.status, n.name AS network, c.network_ref, c.confirmed, c.port, c.payload,
                c.network_id, c.reason, d.owner_id, n.adapter, n.base_url, n.api_key_encrypted, n.application_id, n.webhook_id
         FROM commands c JOIN devices d ON d.uid = c.device_id LEFT JOIN networks n ON n.uid = c.network_ref WHERE c.uid = $1 AND d.deleted_at IS NULL`,
  commandAdvance: `UPDATE commands c SET status = $2, updated_at = now(),
                network_id = coalesce($3, c.network_id), reason = coalesce($4, c.reason)
         WHERE c.uid = $1 AND (CASE c.status WHEN 'Created' THEN 0 WHEN 'Scheduled' THEN 1 WHEN 'Sent' THEN 2 WHEN 'Acknowledged' THEN 3 WHEN 'Failed' THEN 3 WHEN 'Cancelled' THEN 3 END) < $5 AND c.status NOT IN ('Acknowledged', 'Failed', 'Cancelled')
         RETURNING c.device_id`,
  // Route 9's audit record, many in one: AuditRepository (libs/persistence/src/audit/audit.repository.ts).
  audit: `INSERT INTO audit_events (at, account_id, organisation_id, username, token_uid, via, action, target, status, ip, request_id)
           SELECT at, account_id, organisation_id, username, token_uid, via, action, coalesce(target, '{}'), status, ip, request_id
           FROM jsonb_to_recordset($1::jsonb) AS x(at timestamptz, account_id integer, organisation_id integer, username text, token_uid integer, via text,
                                                    action text, target jsonb, status smallint, ip text, request_id text)`,
  // Live notices without Redis: LiveBus.publish.
  notify: `SELECT pg_notify($1, m) FROM unnest($2::text[]) AS m`,
};

/**
 * A statement of the table above, as the service's Statements runs it: on PostgreSQL a named
 * prepared statement (the name is the key); on the embedded database unnamed, because its
 * connections share one session, where a name one connection prepared exists for the next.
 */
const NAMED = Boolean(process.env.DATABASE_URL);
const q = (name, values) => pool.query(NAMED ? { name: `limit_${name}`, text: SQL[name], values } : { text: SQL[name], values }).then((r) => r.rows);

// TypeORM hands `date` columns over as their text ('2027-12-07'), and the mappers expect that.
pg.types.setTypeParser(1082, (v) => v);

let url = process.env.DATABASE_URL;
if (!url) {
  const { startEmbeddedPostgres } = dist('libs/persistence/src/embedded/embedded-postgres.js');
  url = (await startEmbeddedPostgres({ dataDir: process.env.DATA_DIR, maxConnections: 20 })).url;
}
const pool = new pg.Pool({ connectionString: url, max: 10 });

// ---- shared stores: Redis when configured, else the database (as the service chooses) ----

let redis = null;
let limiter = null;
if (REDIS_URL) {
  const { default: Redis } = await import('ioredis');
  const { RateLimiterRedis } = await import('rate-limiter-flexible');
  redis = new Redis(REDIS_URL);
  limiter = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: '',
    points: RATE_LIMIT,
    duration: RATE_WINDOW_MS / 1000,
    blockDuration: RATE_WINDOW_MS / 1000,
  });
}

/** The shared count after adding `amount` hits to the account's window (RedisSharedCounters / PgSharedCounters). */
async function sharedAdd(key, amount) {
  if (limiter) {
    const res = await limiter.consume(`{${key}:account}:hits`, amount).catch((reason) => {
      if (reason && typeof reason.consumedPoints === 'number') return reason;
      throw reason;
    });
    return { hits: res.consumedPoints, expiresAt: Date.now() + (res.msBeforeNext < 0 ? RATE_WINDOW_MS : res.msBeforeNext) };
  }
  const [row] = await q('rateLimit', [key, RATE_WINDOW_MS, RATE_LIMIT, RATE_WINDOW_MS, amount]);
  return { hits: row.hits, expiresAt: Date.now() + row.ttl_ms };
}

/** BatchedThrottlerStorage's counting, bare: the first hit of a window awaited, later ones sent every 100 ms. */
const slots = new Map();
async function countHit(accountId) {
  const key = `${PREFIX}:rl:account:${accountId}`;
  let slot = slots.get(key);
  const now = Date.now();
  if (!slot || slot.expiresAt <= now || slot.known + slot.pending >= RATE_LIMIT / 2) {
    const state = await sharedAdd(key, 1);
    slot = { known: state.hits, pending: 0, expiresAt: state.expiresAt };
    slots.set(key, slot);
  } else slot.pending++;
  if (slot.known + slot.pending > RATE_LIMIT) throw Object.assign(new Error('rate limited'), { status: 429, code: 'RATE_LIMITED' });
}
setInterval(() => {
  for (const [key, slot] of slots) {
    if (slot.pending === 0) continue;
    const amount = slot.pending;
    slot.pending = 0;
    sharedAdd(key, amount).then(
      (state) => (slot.known = state.hits),
      (error) => console.error(`rate limit sync: ${error.message}`),
    );
  }
}, RATE_SYNC_MS).unref();

/** Live notices, published as LiveBus.publish does; this process listens to them as every api instance does. */
async function publish(notices) {
  if (notices.length === 0) return;
  const messages = packLiveNotices(notices);
  if (redis) for (const m of messages) await redis.publish(`${PREFIX}:live`, m);
  else await q('notify', ['dts_live', messages]);
}
let heard = 0; // what the subscription delivers is parsed, as the service's LiveBus parses it
const hear = (message) => (heard += JSON.parse(message).length);
if (redis) {
  const subscriber = redis.duplicate();
  await subscriber.subscribe(`${PREFIX}:live`);
  subscriber.on('message', (_channel, message) => hear(message));
} else {
  const listener = new pg.Client({ connectionString: url });
  await listener.connect();
  await listener.query('LISTEN dts_live');
  listener.on('notification', (n) => n.payload && hear(n.payload));
}

/** The audit log, bare: records held and written every AUDIT_FLUSH_MS, one INSERT for all. */
let auditPending = [];
setInterval(() => {
  if (auditPending.length === 0) return;
  const batch = auditPending;
  auditPending = [];
  q('audit', [JSON.stringify(batch)]).catch((error) => console.error(`audit: ${error.message}`));
}, AUDIT_FLUSH_MS).unref();

// The dispatch queue: BullMQ as the service configures it (libs/platform/src/queue), on Redis or on
// BullMQ's PostgreSQL backend, with one worker doing the dispatch processor's round trips.
const bullmq = await import('bullmq');
// As configureQueueBackend (libs/platform/src/queue/queue-connection.ts) chooses: the PostgreSQL
// backend is BullMQ's process-wide default, installed before any queue is made.
bullmq.setDefaultBackendFactory(REDIS_URL ? undefined : bullmq.createPostgresBackend);
const queueOptions = REDIS_URL
  ? { connection: { url: REDIS_URL, maxRetriesPerRequest: null }, prefix: `${PREFIX}:q` }
  : { connection: { connectionString: url, migrate: true, schema: NAMED ? 'bullmq' : 'public', max: 3 }, prefix: PREFIX };
const dispatchQueue = new bullmq.Queue(domain.JOB_QUEUE['command.dispatch'], queueOptions);
const dispatchWorker = new bullmq.Worker(
  domain.JOB_QUEUE['command.dispatch'],
  async (job) => {
    const [command] = await q('commandForDispatch', [job.data.commandUid]);
    if (!command || command.status !== 'Created') return { status: command?.status ?? 'gone' };
    const advanced = await q('commandAdvance', [command.uid, 'Scheduled', `sim:${command.uid}`, null, 1]);
    if (advanced.length > 0) await publish([{ kind: 'command', device: command.device_id, command: command.uid }]);
    return { status: 'Scheduled' };
  },
  { ...queueOptions, drainDelay: 1, lockDuration: 10_000, stalledInterval: 5_000 },
);
dispatchWorker.on('error', (error) => console.error(`dispatch worker: ${error.message}`));
const DISPATCH_OPTIONS = { attempts: 6, backoff: { type: 'exponential', delay: 2_000 }, removeOnComplete: true, removeOnFail: true };

// ---- the caller ----

const credentials = new Map();

/** Authenticator.byToken and AuthGuard.actingIn, bare: the principal, or a thrown refusal. */
async function caller(headers) {
  const m = /^bearer\s+(.+)$/i.exec(headers.authorization ?? '');
  const token = m?.[1]?.trim();
  if (!token || !domain.TOKEN_PATTERN.test(token)) throw refusal(401, 'INVALID_TOKEN');
  const digest = createHash('sha256').update(token, 'utf8').digest();
  const key = digest.toString('hex');
  let hit = credentials.get(key);
  if (!hit || Date.now() - hit.storedAt >= CREDENTIAL_TTL_MS) {
    const [found] = await q('credential', [digest]);
    hit = { found, storedAt: Date.now() };
    if (found) credentials.set(key, hit);
  }
  const c = hit.found;
  if (!c || c.tokenEnabled !== 1 || c.accountActive !== 1 || c.creatorActive !== 1 || c.role === null) throw refusal(401, 'INVALID_TOKEN');
  if (c.tokenUntil && c.tokenUntil.getTime() <= Date.now()) throw refusal(401, 'TOKEN_EXPIRED');
  // A key acts in its own account; naming another organisation is naming one it cannot see.
  const named = typeof headers['x-organisation'] === 'string' ? headers['x-organisation'].trim() : '';
  if (named !== '' && !(c.organisation && (named.toLowerCase() === c.username.toLowerCase() || named === String(c.accountId)))) throw refusal(404, 'NOT_FOUND');
  await countHit(c.accountId);
  return {
    accountId: c.accountId,
    userId: c.createdBy ?? c.accountId,
    username: c.username,
    organisation: c.organisation ? c.accountId : null,
    tokenUid: c.tokenUid,
    tokenType: c.tokenType,
  };
}

const refusal = (status, code) => Object.assign(new Error(code), { status, code });

async function device(me, eui) {
  if (!/^[0-9A-Fa-f]{16}$/.test(eui)) throw refusal(400, 'VALIDATION_FAILED');
  const [d] = await q('deviceAccess', [me.accountId, eui.toUpperCase()]);
  if (!d) throw refusal(404, 'NOT_FOUND');
  return d;
}

/** The retention headers of a history answer (UplinksService.withRetention). */
async function retentionHeaders(deviceUid) {
  const days = (await q('retention', [PLATFORM_RETENTION_DAYS, deviceUid]))[0]?.effectiveDays ?? null;
  const from = days === null ? null : domain.toUnix(cutoffDay(new Date(), days));
  return domain.historyRetentionHeaders({ retention_days: days, raw_history_from_unix: from });
}

// ---- the routes: each returns [status, data] (an envelope), or writes its answer itself ----

const ROUTES = [
  ['GET', '/user/device', async (me) => [200, (await q('deviceEuis', [me.accountId])).map((r) => r.eui)]],
  [
    'GET',
    '/user',
    async (me) => {
      const [r] = await q('account', [me.accountId]);
      const entity = Object.fromEntries(Object.entries(r).map(([k, v]) => [k.slice('AccountEntity_'.length).replace(/_(\w)/g, (_, c) => c.toUpperCase()), v]));
      return [200, toAccountWire(entity, PLATFORM_RETENTION_DAYS)];
    },
  ],
  [
    'GET',
    '/user/device/meta/:eui',
    async (me, { eui }) => {
      if (!/^[0-9A-Fa-f]{16}$/.test(eui)) throw refusal(400, 'VALIDATION_FAILED');
      const rows = await q('deviceMeta', [me.accountId, eui.toUpperCase()]);
      if (rows.length === 0) throw refusal(404, 'NOT_FOUND');
      return [200, rows.map((row) => toDeviceMetaWire(row, PLATFORM_RETENTION_DAYS))];
    },
  ],
  [
    'GET',
    '/user/token',
    async (me) => {
      const rows = await q('tokens', [me.accountId]);
      const master = me.tokenType === 'master';
      return [
        200,
        rows
          .filter((r) => master || r.t_type === 'app')
          .map((r) => {
            const t = {
              uid: r.t_uid,
              accountId: r.t_account_id,
              createdAt: r.t_created_at,
              until: r.t_until,
              enabled: r.t_enabled,
              type: r.t_type,
              name: r.t_name,
              meta: r.t_meta,
              rights: r.t_rights,
              createdBy: r.t_created_by,
            };
            return toApiTokenWire(t, me.organisation === null || t.createdBy === me.userId ? decrypt(r.t_value_encrypted) : '');
          }),
      ];
    },
  ],
  [
    'GET',
    '/user/device/command/:eui',
    async (me, { eui }, query) => {
      const d = await device(me, eui);
      const limit = query.limit === undefined ? 100 : Number(query.limit);
      return [200, (await q('commandList', [d.uid, null, null, limit])).map(domain.toCommandWire)];
    },
  ],
  ['GET', '/user/device/data/:eui', (me, params, query, res) => data(me, params.eui, query, res)],
  ['POST', '/ingest/rest', async (me, _params, query, _res, body) => [202, await ingest(me, body, query)]],
  ['POST', '/user/device/command/:eui', async (me, { eui }, _query, res, body, req) => [201, await createCommand(me, eui, body, req)]],
];

function decrypt(sealed) {
  const decipher = createDecipheriv('aes-256-gcm', TOKEN_KEY, sealed.subarray(0, 12));
  decipher.setAuthTag(sealed.subarray(12, 28));
  return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8');
}

/** Routes 6 and 7: the cached rendering when the request may use it and it is fresh, else the rows' JSON from PostgreSQL. */
async function data(me, eui, query, res) {
  const d = await device(me, eui);
  const whole = query.limit === undefined && query.from === undefined && query.to === undefined && query.order === undefined;
  if (whole) {
    const [status] = await q('cacheStatus', [d.uid]);
    if (status && status.version > 0 && status.built_version === status.version) {
      const chunk = (n) =>
        redis
          ? redis.get(`${CACHE_PREFIX}:cache:${d.uid}:${status.version}:${n}`)
          : q('cacheChunk', [d.uid, status.version, n]).then((r) => r[0]?.body ?? null);
      const first = await chunk(0);
      if (first !== null) {
        const headers = await retentionHeaders(d.uid);
        // Streamed as the service streams it, with one chunk held back: a body of one chunk (every
        // small read) goes out in one write with its length, a longer one chunk by chunk.
        let held = `${ENVELOPE_HEAD}[${first}`;
        let rows = first.length > 0;
        for (let n = 1; ; n++) {
          const next = await chunk(n);
          if (next === null) break;
          if (next.length === 0) continue; // an empty chunk adds nothing, as DataCacheService.served skips it
          if (!res.headersSent) res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'X-Limit-Cache': 'hit', ...headers });
          res.write(held);
          held = rows ? `,${next}` : next;
          rows = true;
        }
        const tail = `${held}]${ENVELOPE_TAIL}`;
        if (!res.headersSent)
          res.writeHead(200, {
            'Content-Type': 'application/json; charset=utf-8',
            'Content-Length': Buffer.byteLength(tail),
            'X-Limit-Cache': 'hit',
            ...headers,
          });
        res.end(tail);
        return null;
      }
    }
  }
  const headers = await retentionHeaders(d.uid);
  const limit = query.limit === undefined ? READ_BATCH : Math.min(Number(query.limit), READ_BATCH);
  const [rendered] = await q('dataJson', [d.uid, null, null, limit]);
  // What this limit does not do: the service's next keyset batch, and its JavaScript rendering of rows PostgreSQL cannot write exactly.
  if (rendered.count >= READ_BATCH || !rendered.exact) throw new Error('route-limit: more than one batch, or rows PostgreSQL cannot render exactly');
  const text = `${ENVELOPE_HEAD}[${rendered.json ?? ''}]${ENVELOPE_TAIL}`;
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text), 'X-Limit-Cache': 'miss', ...headers });
  res.end(text);
  return null;
}

/** Route 8: IngestService.run for the REST network with an account's token, bare. */
const ingestTargets = new Map(); // IngestTargetsCache: kept until the database says a device changed (never, here)
const commits = new GroupCommit(storeUplinks, 5_000, 2);

async function ingest(me, body, query) {
  const delivery = domain.REST.ingest.read(body, query, new Date(), undefined);
  if (!('uplinks' in delivery)) throw refusal(400, 'VALIDATION_FAILED');
  const parsed = delivery.uplinks;
  const missing = [...new Set(parsed.flatMap((p) => (p.ok && !ingestTargets.has(p.uplink.devEUI) ? [p.uplink.devEUI] : [])))];
  if (missing.length > 0) for (const r of await q('ingestDevices', [missing])) ingestTargets.set(r.eui, r);
  const rejected = [];
  const accepted = [];
  for (const [index, item] of parsed.entries()) {
    if (!item.ok) {
      rejected.push({ index, devEUI: item.devEUI, ...item.problem });
      continue;
    }
    const target = ingestTargets.get(item.uplink.devEUI);
    if (!target || target.owner_id !== me.accountId) {
      rejected.push({ index, devEUI: item.uplink.devEUI, code: 'NOT_FOUND', message: 'no such device' });
      continue;
    }
    accepted.push({ uplink: item.uplink, target });
  }
  const toStore = accepted.map(({ uplink, target }) => {
    const result =
      target.decoder_uid === null ? domain.rawDecoder(uplink.payload, uplink.port) : domain.decoderByName(target.decoder_name)(uplink.payload, uplink.port);
    const tsUnix = typeof result.decoded.ts_unix === 'number' ? new Date(result.decoded.ts_unix * 1000) : null;
    return {
      deviceUid: target.uid,
      receivedAt: uplink.receivedAt,
      networkRef: domain.REST.uid,
      messageId: uplink.messageId,
      port: uplink.port,
      fcnt: uplink.fcnt,
      payload: uplink.payload,
      sf: uplink.sf,
      rssi: uplink.rssi,
      snr: uplink.snr,
      geoloc: uplink.geoloc,
      decoded: result.decoded,
      valid: result.valid,
      ...domain.payloadProblems(result),
      measurements: result.measurements,
      tsDevice: tsUnix,
      tsGps: result.decoded.valid_gps === true ? tsUnix : null,
      apiRef: me.tokenUid,
      simulated: uplink.simulated,
      gateways: uplink.gateways,
      simulatedNetwork: target.network_ref === domain.SIMULATED.uid,
    };
  });
  const stored = await commits.submit(toStore);
  if (stored > 0) {
    const simulated = [...new Set(toStore.filter((u) => u.simulatedNetwork).map((u) => u.deviceUid))];
    if (simulated.length > 0)
      void q('simulatedUplinks', [simulated])
        .then((rows) => publish(rows.map((r) => ({ kind: 'command', device: r.device_id, command: r.uid }))))
        .catch((error) => console.error(`simulated network: ${error.message}`));
  }
  return { accepted: stored, duplicates: toStore.length - stored, rejected };
}

/** IngestRepository.storeNow: one statement for the deliveries the group commit gathered, then their live notices. */
async function storeUplinks(uplinks) {
  const rows = uplinks.map((u, ord) => {
    const offer = domain.uplinkOffer(u);
    return {
      ord,
      device_id: u.deviceUid,
      received_at: u.receivedAt.toISOString(),
      network_ref: u.networkRef,
      message_id: u.messageId,
      port: u.port,
      fcnt: u.fcnt,
      payload: Buffer.from(u.payload).toString('hex'),
      sf: u.sf,
      rssi: u.rssi,
      snr: u.snr,
      geoloc_lat: u.geoloc?.lat ?? null,
      geoloc_lon: u.geoloc?.lon ?? null,
      geoloc_alt: u.geoloc?.alt ?? null,
      decoded: u.decoded,
      valid: u.valid,
      payload_errors: u.errors,
      payload_warnings: u.warnings,
      ...u.measurements,
      ts_device: u.tsDevice?.toISOString() ?? null,
      ts_gps: u.tsGps?.toISOString() ?? null,
      api_ref: u.apiRef,
      simulated: u.simulated,
      has_data: offer.hasData,
      temperature_dc: offer.temperatureDc,
      has_position: offer.hasPosition,
      signal_percent: offer.signalPercent,
    };
  });
  const gateways = uplinks.flatMap((u, ord) => u.gateways.map((g) => ({ ord, gateway_id: g.gatewayId, rssi: g.rssi, snr: g.snr, lat: g.lat, lon: g.lon })));
  const stored = await q('ingestStore', [JSON.stringify(rows), [...new Set(uplinks.map((u) => u.deviceUid))], JSON.stringify(gateways)]);
  const fresh = uplinks.map(() => false);
  const newest = new Map();
  for (const row of stored.sort((a, b) => a.ord - b.ord)) {
    fresh[row.ord] = true;
    newest.set(row.device_id, row.uid);
  }
  await publish([...newest].map(([deviceUid, uid]) => ({ kind: 'uplinks', device: deviceUid, newest: uid })));
  return fresh;
}

/** Route 9: CommandsService.create for a raw hex payload, bare. */
async function createCommand(me, eui, body, req) {
  const d = await device(me, eui);
  const [target] = await q('commandTarget', [d.uid]);
  if (!domain.networkByKind(target.adapter)?.downlink) throw refusal(400, 'VALIDATION_FAILED');
  if (!Number.isInteger(body?.port) || typeof body.payload_hex !== 'string' || !/^([0-9A-Fa-f]{2})+$/.test(body.payload_hex))
    throw refusal(400, 'VALIDATION_FAILED');
  const payload = Buffer.from(body.payload_hex, 'hex');
  const [created] = await q('commandCreate', [d.uid, me.userId, target.network_ref, body.confirmed ?? false, body.port, payload, null, null]);
  const [row] = await q('commandById', [created.uid]);
  await publish([{ kind: 'command', device: d.uid, command: created.uid }]);
  await dispatchQueue.add('command.dispatch', { commandUid: created.uid }, { ...DISPATCH_OPTIONS, jobId: domain.commandDispatchJobId(created.uid) });
  auditPending.push({
    at: new Date().toISOString(),
    account_id: me.accountId,
    organisation_id: me.organisation,
    username: me.username,
    token_uid: me.tokenUid,
    via: 'token',
    action: 'POST /user/device/command/{eui}',
    target: { eui: d.eui },
    status: 201,
    ip: req.socket.remoteAddress,
    request_id: randomUUID(),
  });
  return domain.toCommandWire(row);
}

// ---- the two flavours ----

/** Runs a route's handler and writes its envelope, or the refusal the service would answer. */
async function answer(handler, req, res, params, query, body) {
  try {
    const me = await caller(req.headers);
    const result = await handler(me, params, query, res, body, req);
    if (result === null) return; // written by the handler
    const text = `${ENVELOPE_HEAD}${JSON.stringify(result[1])}${ENVELOPE_TAIL}`;
    res.writeHead(result[0], { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
  } catch (error) {
    if (!error.status) console.error(error);
    if (res.headersSent) return void res.destroy();
    const text = JSON.stringify({ success: false, errors: [{ code: error.code ?? 'INTERNAL' }] });
    res.writeHead(error.status ?? 500, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
  }
}

let server;
if (FLAVOUR === 'express') {
  const { default: express } = await import('express');
  const app = express();
  app.disable('x-powered-by');
  app.get('/', (_req, res) => res.end('ok'));
  for (const [method, path, handler] of ROUTES) {
    const bodyParser = method === 'POST' ? [express.json({ limit: '1mb' })] : [];
    app[method.toLowerCase()](path, ...bodyParser, (req, res) => answer(handler, req, res, req.params, req.query, req.body));
  }
  server = http.createServer(app);
} else if (FLAVOUR === 'raw') {
  const table = ROUTES.map(([method, path, handler]) => {
    const names = [];
    const pattern = new RegExp(`^${path.replace(/:(\w+)/g, (_, name) => (names.push(name), '([^/]+)'))}$`);
    return { method, pattern, names, handler };
  });
  server = http.createServer((req, res) => {
    const mark = req.url.indexOf('?');
    const pathname = mark < 0 ? req.url : req.url.slice(0, mark);
    if (pathname === '/') return void res.end('ok');
    const query = mark < 0 ? {} : Object.fromEntries(new URLSearchParams(req.url.slice(mark + 1)));
    for (const route of table) {
      const m = route.method === req.method ? route.pattern.exec(pathname) : null;
      if (!m) continue;
      const params = Object.fromEntries(route.names.map((n, i) => [n, decodeURIComponent(m[i + 1])]));
      if (req.method !== 'POST') return void answer(route.handler, req, res, params, query, undefined);
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        let body;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          res.writeHead(400).end('{"success":false,"errors":[{"code":"MALFORMED_JSON"}]}');
          return;
        }
        void answer(route.handler, req, res, params, query, body);
      });
      return;
    }
    res.writeHead(404).end('{"success":false,"errors":[{"code":"NOT_FOUND"}]}');
  });
} else throw new Error(`FLAVOUR must be express or raw, not ${FLAVOUR}`);

server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT), '127.0.0.1');

process.on('SIGTERM', async () => {
  server.close();
  await dispatchWorker.close().catch(() => undefined);
  await dispatchQueue.close().catch(() => undefined);
  process.exit(0);
});
