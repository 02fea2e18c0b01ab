import { COMMAND_STATUSES, QUEUES } from '@dts/domain';
import { randomBytes } from 'node:crypto';
import { accountWithCredentials, bearer } from './support/accounts';
import { expectError, expectSuccess } from './support/envelope';
import { eventually } from '@dts/platform';
import { startTestService, TEST_SECRETS, type TestService } from './support/harness';

/*
 * GET /metrics: Prometheus text behind METRICS_TOKEN (open when it is unset), with HTTP timings by
 * route template, ingestion and decoder counters, job outcomes, and gauges read at scrape time.
 */

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?[0-9.e+-]+|NaN|\+Inf|-Inf)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(?:,|$)/g;

/** Parses the text exposition format strictly: every line is a comment or a well-formed sample. */
function parse(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const type = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      types.set(type[1]!, type[2]!);
      continue;
    }
    if (line.startsWith('# HELP ')) continue;
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    const body = m[2] ?? '';
    let consumed = 0;
    for (const l of body.matchAll(LABEL)) {
      labels[l[1]!] = l[2]!;
      consumed += l[0].length;
    }
    if (consumed !== body.length) throw new Error(`bad labels: ${line}`);
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return { samples, types };
}

const sum = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((a, s) => a + s.value, 0);
const newEui = () => randomBytes(8).toString('hex').toUpperCase();
const METRICS_TOKEN = 'metrics-e2e-token-0123456789';
type OpenApiPaths = { paths: Record<string, { get?: { security?: unknown[]; responses: Record<string, unknown> } }> };
const T0 = 1_777_200_000;

describe('GET /metrics with METRICS_TOKEN set', () => {
  let svc: TestService;
  let alice: Awaited<ReturnType<typeof accountWithCredentials>>;

  const scrapePath = async (path: string) => {
    const res = await svc.http().get(path).set('Authorization', `Bearer ${METRICS_TOKEN}`).expect(200);
    return parse(res.text).samples;
  };
  /** The process's own metrics and the deployment's gauges, as Prometheus would have them from two jobs. */
  const scrape = async () => [...(await scrapePath('/metrics')), ...(await scrapePath('/metrics/cluster'))];
  const ingest = (body: unknown) =>
    svc
      .http()
      .post('/ingest/rest')
      .set('X-Ingest-Secret', TEST_SECRETS.INGEST_SECRET)
      .send(body as object);

  beforeAll(async () => {
    svc = await startTestService({ env: { METRICS_TOKEN, AUTH_RATE_LIMIT_PER_MINUTE: '1000' } });
    alice = await accountWithCredentials(svc, 'alice');
  }, 60_000);
  afterAll(() => svc?.close());

  it('is listed by GET /routes and documented in OpenAPI as needing the metrics token', async () => {
    const routes = expectSuccess<{ method: string; path: string; auth: string }[]>(await svc.http().get('/routes'));
    expect(routes.filter((r) => r.path.startsWith('/metrics'))).toEqual([
      { method: 'GET', path: '/metrics', auth: 'metrics', role: null, personal: false, right: null },
      { method: 'GET', path: '/metrics/cluster', auth: 'metrics', role: null, personal: false, right: null },
    ]);
    const doc = (await svc.http().get('/docs/openapi.json').expect(200)).body as OpenApiPaths;
    expect(doc.paths['/metrics']?.get?.security).toEqual([{ metricsToken: [] }]);
    expect(doc.paths['/metrics/cluster']?.get?.security).toEqual([{ metricsToken: [] }]);
  });

  it('needs the token: none is 401 AUTH_REQUIRED, a wrong one or an account token 401 INVALID_TOKEN', async () => {
    expectError(await svc.http().get('/metrics'), 401, 'AUTH_REQUIRED');
    expectError(await svc.http().get('/metrics/cluster'), 401, 'AUTH_REQUIRED');
    expectError(await svc.http().get('/metrics/cluster').set('Cookie', alice.cookie), 401, 'AUTH_REQUIRED');
    expectError(await svc.http().get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}x`), 401, 'INVALID_TOKEN');
    expectError(await svc.http().get('/metrics').set('Authorization', METRICS_TOKEN), 401, 'INVALID_TOKEN');
    expectError(
      await svc
        .http()
        .get('/metrics')
        .set(...bearer(alice.appToken)),
      401,
      'INVALID_TOKEN',
    );
    expectError(
      await svc
        .http()
        .get('/metrics')
        .set(...bearer(alice.masterToken)),
      401,
      'INVALID_TOKEN',
    );
    expectError(await svc.http().get('/metrics').set('Cookie', alice.cookie), 401, 'AUTH_REQUIRED');
  });

  it('answers Prometheus text (not an envelope) that parses, with the default process metrics', async () => {
    const res = await svc.http().get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.text.startsWith('{')).toBe(false);
    const { samples, types } = parse(res.text);
    for (const s of samples)
      expect({ sample: s.name, typed: [...types.keys()].some((t) => s.name === t || s.name.startsWith(`${t}_`)) }).toEqual({ sample: s.name, typed: true });
    expect(types.get('dts_http_request_duration_seconds')).toBe('histogram');
    expect(types.get('dts_uplinks_accepted_total')).toBe('counter');
    expect(samples.some((s) => s.name === 'process_cpu_user_seconds_total')).toBe(true);
    expect(samples.some((s) => s.name === 'nodejs_heap_size_used_bytes')).toBe(true);
    // Every family of ours carries the prefix; the others are prom-client's standard process metrics.
    for (const name of types.keys()) expect({ name, ours: /^(dts_|process_|nodejs_)/.test(name) }).toEqual({ name, ours: true });
    const build = samples.filter((s) => s.name === 'dts_build_info');
    expect(build).toEqual([
      { name: 'dts_build_info', labels: { version: expect.any(String), commit: expect.any(String), node_version: process.version }, value: 1 },
    ]);
  });

  it('serves the deployment-wide gauges once, at /metrics/cluster, and never in the per-process scrape', async () => {
    const own = await scrapePath('/metrics');
    const cluster = await svc.http().get('/metrics/cluster').set('Authorization', `Bearer ${METRICS_TOKEN}`).expect(200);
    expect(cluster.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const { samples, types } = parse(cluster.text);
    expect([...types.keys()].sort()).toEqual(['dts_commands', 'dts_queue_depth']);
    expect(samples.length).toBe(Object.values(QUEUES).length + COMMAND_STATUSES.length);
    expect(own.filter((s) => s.name === 'dts_queue_depth' || s.name === 'dts_commands')).toEqual([]);
  });

  it('counts accepted, duplicate and rejected uplinks by network and reason, and decoder failures by decoder', async () => {
    const eui = newEui();
    expectSuccess(
      await svc
        .http()
        .post(`/user/device/${eui}`)
        .set(...bearer(alice.appToken))
        .send({ decoder_ref: 2 }),
      201,
    );
    const before = await scrape();
    const first = { devEUI: eui, port: 1, payload_hex: '0167011002687F', fcnt: 1, time_stamp_unix: T0 };
    // Not Cayenne LPP: stored with payload_valid false.
    const broken = { devEUI: eui, port: 3, payload_hex: '03FE00', fcnt: 2, time_stamp_unix: T0 + 60 };
    const unknown = { devEUI: newEui(), port: 1, payload_hex: '00', fcnt: 1, time_stamp_unix: T0 };
    const result = expectSuccess<{ accepted: number; duplicates: number; rejected: { code: string }[] }>(await ingest([first, broken, unknown]), 202);
    expect(result).toMatchObject({ accepted: 2, duplicates: 0, rejected: [{ code: 'NOT_FOUND' }] });
    expect(expectSuccess(await ingest(first), 202)).toMatchObject({ accepted: 0, duplicates: 1 });
    const after = await scrape();

    const delta = (name: string, labels: Record<string, string>) => sum(after, name, labels) - sum(before, name, labels);
    expect(delta('dts_uplinks_accepted_total', { network: 'rest' })).toBe(2);
    expect(delta('dts_uplinks_duplicate_total', { network: 'rest' })).toBe(1);
    expect(delta('dts_uplinks_rejected_total', { network: 'rest', reason: 'NOT_FOUND' })).toBe(1);
    expect(delta('dts_uplinks_rejected_total', {})).toBe(1);
    expect(delta('dts_uplinks_accepted_total', { network: 'ttn' })).toBe(0);
    expect(delta('dts_decoder_failures_total', { decoder: 'Cayenne LPP' })).toBe(1); // the broken one; the duplicate decoded fine
  });

  it('labels HTTP timings with the route template, never the URL; unknown paths share ROUTE_NOT_FOUND', async () => {
    const eui = newEui();
    expectSuccess(
      await svc
        .http()
        .post(`/user/device/${eui}`)
        .set(...bearer(alice.appToken))
        .send({}),
      201,
    );
    expectSuccess(
      await svc
        .http()
        .get(`/user/device/meta/${eui}`)
        .set(...bearer(alice.appToken)),
    );
    expectError(await svc.http().get(`/no/such/${eui}`), 404, 'ROUTE_NOT_FOUND');
    expectError(
      await svc
        .http()
        .get(`/user/device/meta/${newEui()}`)
        .set(...bearer(alice.appToken)),
      404,
      'NOT_FOUND',
    );
    const res = await svc.http().get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`).expect(200);
    expect(res.text).not.toContain(eui);
    const samples = parse(res.text).samples.filter((s) => s.name === 'dts_http_request_duration_seconds_count');
    expect(sum(samples, 'dts_http_request_duration_seconds_count', { method: 'GET', route: '/user/device/meta/:eui', status: '200' })).toBeGreaterThanOrEqual(
      1,
    );
    expect(sum(samples, 'dts_http_request_duration_seconds_count', { method: 'GET', route: '/user/device/meta/:eui', status: '404' })).toBeGreaterThanOrEqual(
      1,
    );
    expect(sum(samples, 'dts_http_request_duration_seconds_count', { method: 'POST', route: '/user/device/:eui', status: '201' })).toBeGreaterThanOrEqual(1);
    expect(sum(samples, 'dts_http_request_duration_seconds_count', { method: 'GET', route: 'ROUTE_NOT_FOUND', status: '404' })).toBeGreaterThanOrEqual(1);
    for (const s of samples) expect(s.labels.route).toMatch(/^(\/[A-Za-z_/:.-]*|ROUTE_NOT_FOUND|UNROUTED)$/);
  });

  it('reads queue depths, command statuses, job outcomes and the database pool at scrape time', async () => {
    const eui = newEui();
    expectSuccess(
      await svc
        .http()
        .post(`/user/device/${eui}`)
        .set(...bearer(alice.appToken))
        .send({}),
      201,
    );
    const before = await scrape();
    expectSuccess(
      await svc
        .http()
        .post(`/user/device/command/${eui}`)
        .set(...bearer(alice.appToken))
        .send({ port: 1, payload_hex: '01' }),
      201,
    );
    // The in-process worker hands it to the simulated network; its dispatch job completes.
    let after = await scrape();
    const dispatched = (s: Sample[]) => sum(s, 'dts_jobs_total', { job: 'command.dispatch', outcome: 'completed' });
    await eventually(async () => dispatched((after = await scrape())) > dispatched(before), {
      what: 'the dispatch job to complete',
      timeoutMs: 15_000,
      intervalMs: 100,
    }).catch(
      () => undefined, // the expectation says what it counted
    );
    expect(dispatched(after) - dispatched(before)).toBe(1);

    for (const queue of Object.values(QUEUES)) expect(after.filter((s) => s.name === 'dts_queue_depth' && s.labels.queue === queue)).toHaveLength(1);
    for (const status of COMMAND_STATUSES) expect(after.filter((s) => s.name === 'dts_commands' && s.labels.status === status)).toHaveLength(1);
    expect(sum(after, 'dts_commands') - sum(before, 'dts_commands')).toBe(1);
    expect(sum(after, 'dts_commands', { status: 'Scheduled' })).toBeGreaterThanOrEqual(1);
    expect(sum(after, 'dts_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
    expect(
      after
        .filter((s) => s.name === 'dts_db_pool_connections')
        .map((s) => s.labels.state)
        .sort(),
    ).toEqual(['idle', 'total', 'waiting']);
  });
});

describe('GET /metrics without METRICS_TOKEN', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
  }, 60_000);
  afterAll(() => svc?.close());

  it('is open, and GET /routes and the OpenAPI document say so: auth none, no security (issue 28)', async () => {
    const res = await svc.http().get('/metrics').expect(200);
    expect(parse(res.text).samples.some((s) => s.name === 'dts_build_info')).toBe(true);
    const cluster = await svc.http().get('/metrics/cluster').expect(200);
    expect(parse(cluster.text).samples.some((s) => s.name === 'dts_queue_depth')).toBe(true);
    // Credentials that come anyway change nothing.
    await svc.http().get('/metrics').set('Authorization', 'Bearer whatever').expect(200);
    const routes = expectSuccess<{ method: string; path: string; auth: string }[]>(await svc.http().get('/routes'));
    // What a caller needs here, not what the route would need with a token: nothing.
    expect(routes.filter((r) => r.path.startsWith('/metrics'))).toEqual([
      { method: 'GET', path: '/metrics', auth: 'none', role: null, personal: false, right: null },
      { method: 'GET', path: '/metrics/cluster', auth: 'none', role: null, personal: false, right: null },
    ]);
    const doc = (await svc.http().get('/docs/openapi.json').expect(200)).body as OpenApiPaths;
    expect(doc.paths['/metrics']?.get?.security).toEqual([]);
    expect(doc.paths['/metrics/cluster']?.get?.security).toEqual([]);
    // Never counted against an account, token or not: no 429 documented.
    expect(doc.paths['/metrics']?.get?.responses['429']).toBeUndefined();
  });
});
