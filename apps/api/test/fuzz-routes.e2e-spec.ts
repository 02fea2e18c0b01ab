import { CHIRPSTACK_UPLINK_SAMPLE, TTN_UPLINK_SAMPLE } from '@dts/domain';
import { eventually, pause } from '@dts/platform';
import { getDataSourceToken } from '@nestjs/typeorm';
import { randomBytes, randomInt } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import sharp from 'sharp';
import type { DataSource } from 'typeorm';
import { accountWithCredentials, bearer, login, registerAccount } from './support/accounts';
import { startTestService, TEST_SECRETS, type TestService } from './support/harness';
import {
  bodyMemberMutations,
  fillPath,
  type FuzzCase,
  type FuzzRequest,
  ODD_PATH_VALUES,
  oddQueryValues,
  type OpenApiDocument,
  type OpenApiOperation,
  pathParamKind,
  prng,
  resolve,
  wholeBodyMutations,
} from './support/openapi-fuzz';
import { lpp } from './support/payloads';

/*
 * Schema-driven fuzz of every route in the OpenAPI document (issue #9). For each operation, a valid
 * request is broken one way at a time: odd path parameters, wrongly typed, oversized, missing and
 * unknown members, bodies that are not objects, corrupt multipart uploads. Every answer must be
 * below 500; every 4xx the error envelope; a 400 VALIDATION_FAILED must name the field; and a
 * refused request must leave every table of the service exactly as it was (a digest of each
 * table's rows, read through the service's own connection, before and after). A request that
 * happens to be valid may change data: the baseline is then taken again, once background jobs
 * are quiet. The case list is fixed per operation; the values drawn for it depend on FUZZ_SEED
 * (random unless set), printed with any failure.
 */

const SEED = Number(process.env.FUZZ_SEED ?? randomInt(1, 2 ** 31 - 1));
/** Cases per operation, at most: bounds the run (≈ 80 operations). */
const MAX_CASES_PER_OPERATION = 24;
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

type Json = Record<string, unknown>;

interface Outcome {
  status: number;
  body: unknown;
  contentType: string;
}

async function send(svc: TestService, r: FuzzRequest): Promise<Outcome> {
  // Query values are sent as built (some are deliberately percent-encoded already).
  const target = new URL(svc.url);
  const path = `${r.path}${r.query.length ? `?${r.query.map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join('&')}` : ''}`;
  const headers: Record<string, string> = { ...r.headers };
  let body: Buffer | undefined;
  if (r.form) {
    const form = new FormData();
    for (const [k, v] of r.form.fields) form.append(k, v);
    for (const f of r.form.files) form.append(f.field, new Blob([f.bytes], { type: f.type }), f.name);
    // The platform's own multipart encoder, so that only the content is odd, never the framing.
    const encoded = new Request('http://localhost/', { method: 'POST', body: form });
    body = Buffer.from(await encoded.arrayBuffer());
    headers['content-type'] = encoded.headers.get('content-type')!;
  } else if (r.raw) {
    headers['content-type'] = r.raw.contentType;
    body = Buffer.from(r.raw.body);
  } else if (r.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = Buffer.from(JSON.stringify(r.json));
  }
  if (body) headers['content-length'] = String(body.length);
  // node:http, not fetch: fetch refuses a body on GET, and normalises paths the fuzz means to send as they are.
  return new Promise<Outcome>((resolveOutcome, reject) => {
    const req = httpRequest({ host: target.hostname, port: target.port, method: r.method, path, headers, timeout: 20_000 }, (res) => {
      const contentType = String(res.headers['content-type'] ?? '');
      if (contentType.startsWith('text/event-stream')) {
        // A live feed never ends: its status and type are the answer.
        res.destroy();
        return resolveOutcome({ status: res.statusCode ?? 0, body: null, contentType });
      }
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        if (contentType.includes('json') && !contentType.includes('ndjson')) {
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = text;
          }
        }
        resolveOutcome({ status: res.statusCode ?? 0, body: parsed, contentType });
      });
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 20 s')));
    req.on('error', reject);
    req.end(body);
  });
}

/** What is wrong with a 4xx answer, or null when it is the spec's error envelope. */
function envelopeProblem(o: Outcome): string | null {
  const b = o.body as Json;
  if (!o.contentType.includes('application/json') || typeof b !== 'object' || b === null) return `a ${o.status} that is not JSON (${o.contentType})`;
  if (b.success !== false || b.data !== null || !Array.isArray(b.errors) || b.errors.length === 0)
    return `a ${o.status} without the error envelope: ${JSON.stringify(b).slice(0, 300)}`;
  for (const key of ['debug', 'meta', 'messages']) if (!(key in b)) return `a ${o.status} envelope without ${key}`;
  for (const e of b.errors as Json[]) {
    if (typeof e.code !== 'string' || typeof e.message !== 'string') return `a ${o.status} with a malformed error entry ${JSON.stringify(e)}`;
    if ('field' in e && typeof e.field !== 'string') return `a ${o.status} whose field is not a string`;
  }
  const codes = (b.errors as Json[]).map((e) => e.code);
  if (
    o.status === 400 &&
    codes.includes('VALIDATION_FAILED') &&
    !(b.errors as Json[]).some((e) => e.code === 'VALIDATION_FAILED' && typeof e.field === 'string' && e.field.length > 0)
  ) {
    return `a 400 VALIDATION_FAILED naming no field: ${JSON.stringify(b.errors)}`;
  }
  return null;
}

/** A digest of every row of every table the service maps (its entities): any write changes it. */
async function snapshotter(ds: DataSource): Promise<() => Promise<Record<string, string>>> {
  const tables = [...new Set(ds.entityMetadatas.filter((m) => m.tableType !== 'view').map((m) => m.tableName))].sort();
  const sql = `SELECT ${tables.map((t, i) => `(SELECT count(*)::text || ':' || coalesce(md5(string_agg(md5(x::text), ',' ORDER BY md5(x::text))), '') FROM "${t}" x) AS t${i}`).join(', ')}`;
  return async () => {
    const [row] = (await ds.query(sql)) as [Record<string, string>];
    return Object.fromEntries(tables.map((t, i) => [t, row[`t${i}`]!]));
  };
}

/** A path value as a form field carries it: decoded where it decodes, else as it is. */
function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

const changedTables = (a: Record<string, string>, b: Record<string, string>) => Object.keys(a).filter((t) => a[t] !== b[t]);

async function jpeg(seed: number): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 48, channels: 3, background: { r: seed % 256, g: (seed * 7) % 256, b: 90 } } })
    .jpeg()
    .toBuffer();
}

describe('schema-driven fuzz of every route', () => {
  let svc: TestService;
  let doc: OpenApiDocument;
  let snapshot: () => Promise<Record<string, string>>;
  const summary = { operations: 0, cases: 0, refused: 0, accepted: 0, byStatus: {} as Record<number, number> };

  beforeAll(async () => {
    svc = await startTestService({ env: { RATE_LIMIT_PER_MINUTE: '1000000', AUTH_RATE_LIMIT_PER_MINUTE: '1000000' } });
    doc = (await svc.http().get('/docs/openapi.json').expect(200)).body as OpenApiDocument;
    snapshot = await snapshotter(svc.app.get<DataSource>(getDataSourceToken()));
  }, 120_000);

  afterAll(async () => {
    await svc?.close();
  });

  it('sends no request that gets a 5xx, a 4xx without the envelope, or a refused request that stored anything', async () => {
    // ---- a world to aim at: an owner with a device that has data, commands, an image, a fence, a codec
    const owner = await accountWithCredentials(svc, 'fuzz');
    const other = await registerAccount(svc, 'fuzzother');
    const auth = bearer(owner.masterToken);
    const api = (method: string, path: string, json?: unknown) => send(svc, { method, path, query: [], headers: { [auth[0]]: auth[1] }, json });
    const must = async (p: Promise<Outcome>, status: number) => {
      const o = await p;
      if (o.status !== status) throw new Error(`setup: expected ${status}, got ${o.status} ${JSON.stringify(o.body).slice(0, 300)}`);
      return (o.body as { data: unknown }).data;
    };
    const newEui = () => randomBytes(8).toString('hex').toUpperCase();
    const eui = newEui();
    const victimEui = newEui();
    await must(api('POST', `/user/device/${eui}`, { decoder_ref: 2, label: 'fuzz target' }), 201);
    await must(api('POST', `/user/device/${victimEui}`, { label: 'fuzz victim' }), 201);
    const t0 = Math.floor(Date.now() / 1000) - 3600;
    const items = [0, 1, 2].map((i) => ({ devEUI: eui, port: 1, payload_hex: lpp({ t: 20 + i, h: 50, volt: 3.6 }), time_stamp_unix: t0 + i * 60, fcnt: i }));
    await must(send(svc, { method: 'POST', path: '/ingest/rest', query: [], headers: { 'X-Ingest-Secret': TEST_SECRETS.INGEST_SECRET }, json: items }), 202);
    const commandUid = (await must(api('POST', `/user/device/command/${eui}`, { port: 5, payload_hex: '01FF' }), 201)) as { uid: number } | number;
    const fenceBody = {
      name: 'fuzz fence',
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [5.1, 52.0],
            [5.2, 52.0],
            [5.2, 52.1],
            [5.1, 52.0],
          ],
        ],
      },
    };
    const fence = (await must(api('POST', '/user/fence', fenceBody), 201)) as { uid: number } | number;
    const victimFence = (await must(api('POST', '/user/fence', fenceBody), 201)) as { uid: number } | number;
    const codecBody = { name: 'fuzz codec', script: 'function decodeUplink(input) { return { data: { n: input.bytes.length } }; }' };
    const codec = (await must(api('POST', '/user/codec', codecBody), 201)) as { uid: number } | number;
    const victimToken = (await must(api('POST', '/user/token', { type: 'API', name: 'fuzz victim' }), 201)) as number;
    const organisation = (await must(api('POST', '/org', { name: `fzorg${randomBytes(4).toString('hex')}` }), 201)) as { id: number };
    const victimOrganisation = (await must(api('POST', '/org', { name: `fzgone${randomBytes(4).toString('hex')}` }), 201)) as { id: number };
    const uploadImage = async (seed: number) => {
      const o = await send(svc, {
        method: 'POST',
        path: `/user/device/image/${eui}`,
        query: [],
        headers: { [auth[0]]: auth[1] },
        form: { fields: [], files: [{ field: 'file', name: `p${seed}.jpg`, bytes: await jpeg(seed), type: 'image/jpeg' }] },
      });
      if (o.status !== 201) throw new Error(`setup: image upload ${o.status} ${JSON.stringify(o.body)}`);
      return (o.body as { data: { hash: string; meta: { url: string } } }).data;
    };
    const image = await uploadImage(1);
    const victimImage = await uploadImage(2);
    const uidOf = (v: { uid: number } | number) => String(typeof v === 'number' ? v : v.uid);
    const signed = new URL(((await must(api('GET', `/user/device/image/${eui}/${image.hash}`), 200)) as { meta: { url: string } }).meta.url);

    // ---- the valid request of each operation, which the cases then break
    const ownerHeaders = { [auth[0]]: auth[1] };
    const ingestHeaders = { 'X-Ingest-Secret': TEST_SECRETS.INGEST_SECRET };
    const pathValues = (method: string, template: string): Record<string, string> => {
      const destructive = method === 'DELETE';
      const values: Record<string, string> = {
        eui: destructive && template === '/user/device/{eui}' ? victimEui : eui,
        image_hash: destructive ? victimImage.hash : image.hash,
        decoder_id: '2',
        type_id: '1',
        network_ref: '1',
        // A delivery of an integration of the owner's; none exists, so the valid case is a 404.
        id: '1',
      };
      if (template.startsWith('/user/fence/')) values.uid = uidOf(destructive ? victimFence : fence);
      else if (template.startsWith('/user/codec/')) values.uid = uidOf(codec);
      else if (template.startsWith('/user/device/command/')) values.uid = uidOf(commandUid);
      else if (template.startsWith('/user/device/share/') || template.startsWith('/user/device/result/')) values.uid = String(other.id);
      else if (template.startsWith('/org/')) values.uid = String(destructive && template === '/org/{uid}' ? victimOrganisation.id : organisation.id);
      else values.uid = template.startsWith('/user/network/') ? '999999' : '1';
      // The owner themselves: the last owner, so removing or lowering them is a 409.
      values.account = String(owner.account.id);
      values.invitation = '1';
      // No provider is configured here: every sign-in route answers that it has none.
      values.provider = 'corp';
      if (template === '/files/image/{image_hash}') values.image_hash = image.hash;
      return values;
    };
    const VALID_BODIES: Record<string, unknown> = {
      'POST /auth/register': { username: `fz${randomBytes(4).toString('hex')}`, email: 'fz@example.org', password: 'a-long-enough-password' },
      'DELETE /auth/register': { password: 'not-the-password' },
      'POST /auth/login': { username: owner.account.username, password: 'not-the-password' },
      'POST /auth/check': { username: owner.account.username, password: 'not-the-password' },
      'POST /auth/restore': { email: 'nobody@example.org' },
      'POST /auth/pwdchange': { current_password: 'not-the-password', new_password: 'another-long-password' },
      'POST /auth/verify': { token: '0'.repeat(64) },
      'PATCH /user': { email: 'fz-new@example.org', current_password: 'not-the-password' },
      'POST /user/token': { type: 'API', name: 'fuzz' },
      'DELETE /user/token': { uid: victimToken },
      'POST /user/device/meta/{eui}': { label: 'renamed', folder: 'f', tags: { a: 1 } },
      'POST /user/device/share/{eui}': { username: 'nobody-of-that-name' },
      'POST /user/device/{eui}': { label: 'new device', decoder_ref: 2 },
      'POST /user/fence': fenceBody,
      'POST /ingest/ttn': null,
      'POST /ingest/chirpstack': null,
      'POST /ingest/rest': { devEUI: eui, port: 1, payload_hex: lpp({ t: 21 }), time_stamp_unix: t0 + 900 },
      'POST /user/codec': codecBody,
      'POST /user/device/command/{eui}': { port: 5, payload_hex: '01FF', confirmed: false },
      'POST /user/network': { name: 'fuzz net', adapter: 'chirpstack', base_url: 'https://chirpstack.example.org', api_key: 'k' },
      'POST /user/device/image/{eui}/{image_hash}/annotations': { annotations: [] },
      'POST /feedback': { message: 'fuzz', category: 'other' },
      'POST /org': { name: `fz${randomBytes(4).toString('hex')}`, fullname: 'fuzz' },
      'PATCH /org/{uid}': { fullname: 'fuzz renamed' },
      'POST /org/{uid}/member': { username: other.username, role: 'viewer' },
      'PATCH /org/{uid}/member/{account}': { role: 'owner' },
      'POST /org/{uid}/invitation': { email: 'fz-invited@example.org', role: 'viewer' },
    };
    VALID_BODIES['POST /ingest/ttn'] = { ...structuredClone(TTN_UPLINK_SAMPLE), end_device_ids: { ...TTN_UPLINK_SAMPLE.end_device_ids, dev_eui: eui } };
    VALID_BODIES['POST /ingest/chirpstack'] = {
      ...structuredClone(CHIRPSTACK_UPLINK_SAMPLE),
      deviceInfo: { ...CHIRPSTACK_UPLINK_SAMPLE.deviceInfo, devEui: eui.toLowerCase() },
    };
    const VALID_QUERY: Record<string, [string, string][]> = {
      'POST /ingest/chirpstack': [['event', 'up']],
      'GET /files/image/{image_hash}': [...signed.searchParams.entries()],
      'DELETE /org/{uid}': [['devices', 'delete']],
    };

    // ---- cases, per operation
    const rng = prng(SEED);
    const operations: { key: string; method: string; template: string; op: OpenApiOperation }[] = [];
    for (const [template, ops] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(ops))
        operations.push({ key: `${method.toUpperCase()} ${template}`, method: method.toUpperCase(), template, op });
    expect(operations.length).toBeGreaterThan(50);

    const casesFor = (o: (typeof operations)[number]): FuzzCase[] => {
      const params = o.op.parameters ?? [];
      const pathParams = params.filter((p) => p.in === 'path');
      const queryParams = params.filter((p) => p.in === 'query');
      const values = pathValues(o.method, o.template);
      const headers = o.template.startsWith('/ingest/') ? ingestHeaders : o.template === '/files/image/{image_hash}' ? {} : ownerHeaders;
      const baseQuery = VALID_QUERY[o.key] ?? [];
      const base = (): FuzzRequest => ({ method: o.method, path: fillPath(o.template, values), query: [...baseQuery], headers: { ...headers } });
      const media = Object.keys(o.op.requestBody?.content ?? {});
      const validBody = (VALID_BODIES[o.key] ?? (media.includes('application/json') ? {} : undefined)) as Json | undefined;
      const withBody = (r: FuzzRequest): FuzzRequest => (validBody !== undefined && !media.includes('multipart/form-data') ? { ...r, json: validBody } : r);
      const must: FuzzCase[] = [];
      const may: FuzzCase[] = [];

      for (const p of pathParams) {
        for (const odd of rng.shuffle(ODD_PATH_VALUES[pathParamKind(p.name)]).slice(0, 6)) {
          must.push({
            what: `path ${p.name}=${odd.slice(0, 60)}`,
            category: 'path',
            request: withBody({ ...base(), path: fillPath(o.template, { ...values, [p.name]: odd }) }),
          });
        }
      }
      for (const q of queryParams) {
        const schema = resolve(doc, q.schema);
        if (q.required)
          must.push({
            what: `without the required query ${q.name}`,
            category: 'query',
            request: withBody({ ...base(), query: baseQuery.filter(([k]) => k !== q.name) }),
          });
        for (const odd of rng.shuffle(oddQueryValues(schema)).slice(0, 3)) {
          may.push({
            what: `query ${q.name}=${odd.slice(0, 60)}`,
            category: 'query',
            request: withBody({ ...base(), query: [...baseQuery.filter(([k]) => k !== q.name), [q.name, odd]] }),
          });
        }
        may.push({
          what: `query ${q.name} repeated`,
          category: 'query',
          request: withBody({ ...base(), query: [...baseQuery.filter(([k]) => k !== q.name), [q.name, '1'], [q.name, '2']] }),
        });
      }
      if (!MUTATING.has(o.method) || queryParams.length > 0) {
        for (const name of ['zz_unknown', '__proto__', 'toString'])
          may.push({ what: `unknown query member ${name}`, category: 'query', request: withBody({ ...base(), query: [...baseQuery, [name, '1']] }) });
      }
      if (media.includes('multipart/form-data')) {
        must.push(...multipartCases(o.template, base, rng));
      } else if (media.includes('application/json')) {
        const schema = o.op.requestBody!.content['application/json']!.schema;
        for (const m of bodyMemberMutations(schema ?? {}, doc, validBody ?? {}))
          (m.what.startsWith('without') || m.member === 'zz_unknown' ? must : may).push({
            what: `body ${m.what}`,
            category: 'body',
            request: { ...base(), json: m.json },
          });
      }
      // Every route meets the body parser, whether it takes a body or not.
      for (const w of wholeBodyMutations())
        (media.length > 0 ? must : may).push({ what: w.what, category: 'whole-body', request: { ...base(), json: w.json, raw: w.raw } });
      const picked = [...must, ...rng.shuffle(may)].slice(0, Math.max(MAX_CASES_PER_OPERATION, Math.min(must.length, 40)));
      return picked;
    };

    const multipartCases = (template: string, base: () => FuzzRequest, r: ReturnType<typeof prng>): FuzzCase[] => {
      const ingest = template === '/ingest/image';
      const fields = (extra: [string, string][] = []): [string, string][] => [...(ingest ? [['devEUI', eui] as [string, string]] : []), ...extra];
      const jpegHead = Buffer.from([0xff, 0xd8, 0xff, 0xe0]);
      const files = {
        corrupt: { field: 'file', name: 'x.jpg', bytes: Buffer.concat([jpegHead, randomBytes(2000)]), type: 'image/jpeg' },
        random: { field: 'file', name: 'x.jpg', bytes: randomBytes(3000), type: 'image/jpeg' },
        empty: { field: 'file', name: 'x.jpg', bytes: Buffer.alloc(0), type: 'image/jpeg' },
        svg: {
          field: 'file',
          name: 'x.svg',
          bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
          type: 'image/svg+xml',
        },
        html: { field: 'file', name: '../../x.jpg', bytes: Buffer.from('<html>hi</html>'), type: 'image/jpeg' },
        truncated: { field: 'file', name: 'x.png', bytes: Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), type: 'image/png' },
      };
      const form = (f: FuzzRequest['form']): FuzzRequest => ({ ...base(), form: f });
      const cases: FuzzCase[] = [
        { what: 'no file', category: 'multipart', request: form({ fields: fields(), files: [] }) },
        ...Object.entries(files).map(([k, f]) => ({ what: `a ${k} file`, category: 'multipart' as const, request: form({ fields: fields(), files: [f] }) })),
        { what: 'the file under another field', category: 'multipart', request: form({ fields: fields(), files: [{ ...files.corrupt, field: 'photo' }] }) },
        { what: 'two files', category: 'multipart', request: form({ fields: fields(), files: [files.corrupt, files.random] }) },
        { what: 'an unknown field', category: 'multipart', request: form({ fields: fields([['zz_unknown', '1']]), files: [files.corrupt] }) },
        { what: 'a __proto__ field', category: 'multipart', request: form({ fields: fields([['__proto__', '1']]), files: [files.corrupt] }) },
        { what: 'a toString field', category: 'multipart', request: form({ fields: fields([['toString', '1']]), files: [files.corrupt] }) },
        { what: 'an oversized field', category: 'multipart', request: form({ fields: fields([['vendor_id', 'x'.repeat(5000)]]), files: [files.corrupt] }) },
        {
          what: 'too many fields',
          category: 'multipart',
          request: form({ fields: fields(Array.from({ length: 30 }, (_v, i) => [`f${i}`, '1'] as [string, string])), files: [files.corrupt] }),
        },
        ...(<[string, string][]>[
          ['ts_photo_unix', 'abc'],
          ['ts_photo_unix', '-5'],
          ['ts_tx_unix', '1.5'],
          ['lat', '91'],
          ['lat', 'NaN'],
          ['lon', 'Infinity'],
          ['filename', '../etc/passwd'],
          ['filename', ''],
        ]).map(([k, v]) => ({ what: `field ${k}=${v}`, category: 'multipart' as const, request: form({ fields: fields([[k, v]]), files: [files.corrupt] }) })),
        {
          what: 'a multipart body that is cut off',
          category: 'multipart',
          request: {
            ...base(),
            raw: {
              body: '--zz\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\n\r\n\xff\xd8',
              contentType: 'multipart/form-data; boundary=zz',
            },
          },
        },
        {
          what: 'a multipart body without a boundary',
          category: 'multipart',
          request: { ...base(), raw: { body: 'whatever', contentType: 'multipart/form-data' } },
        },
        { what: 'a JSON body instead of a form', category: 'multipart', request: { ...base(), json: { file: 'x' } } },
      ];
      if (ingest) {
        cases.push({ what: 'no devEUI', category: 'multipart', request: { ...base(), form: { fields: [], files: [files.corrupt] } } });
        for (const odd of r.shuffle(ODD_PATH_VALUES.eui).slice(0, 4)) {
          cases.push({
            what: `devEUI=${odd.slice(0, 40)}`,
            category: 'multipart',
            request: { ...base(), form: { fields: [['devEUI', safeDecode(odd)]], files: [files.corrupt] } },
          });
        }
      }
      return cases;
    };

    // ---- run
    const failures: string[] = [];
    const uncovered: string[] = [];
    const quiet = async (maxMs = 10_000) => {
      // Background jobs (dispatch, thumbnails, cache rebuilds) settle: two equal digests in a row.
      // The interval is real time on purpose: "settled" is "nothing was written for 250 ms", since the
      // jobs a fuzzed request may start are many and not named here.
      let last = await snapshot();
      await pause(250);
      return eventually(
        async () => {
          const now = await snapshot();
          const changed = changedTables(last, now);
          last = now;
          expect(changed).toEqual([]);
          return now;
        },
        { what: 'the background jobs to settle (no table changed for 250 ms)', timeoutMs: maxMs, intervalMs: 250 },
      );
    };
    let baseline = await quiet(30_000);
    const started = Date.now();

    for (const o of operations) {
      const cases = casesFor(o);
      summary.operations++;
      let refusedHere = 0;
      if (cases.length === 0) uncovered.push(o.key);
      for (const c of cases) {
        const request = c.request;
        if (o.key === 'POST /auth/logout') {
          // Logging out for real ends the session it is called with: give each case its own.
          request.headers = { Cookie: await login(svc, owner.account) };
          baseline = await quiet();
        }
        let outcome: Outcome;
        try {
          outcome = await send(svc, request);
        } catch (error) {
          failures.push(`${o.key} — ${c.what}: no answer (${(error as Error).message})`);
          continue;
        }
        summary.cases++;
        summary.byStatus[outcome.status] = (summary.byStatus[outcome.status] ?? 0) + 1;
        const label = `${o.key} — ${c.what}: ${outcome.status}`;
        if (outcome.status >= 500) {
          failures.push(`${label} ${JSON.stringify(outcome.body).slice(0, 300)}`);
          baseline = await quiet();
          continue;
        }
        if (outcome.status >= 400) {
          summary.refused++;
          refusedHere++;
          const problem = envelopeProblem(outcome);
          if (problem) failures.push(`${label}: ${problem}`);
          const after = await snapshot();
          const changed = changedTables(baseline, after);
          if (changed.length > 0) {
            failures.push(`${label}: refused, yet ${changed.join(', ')} changed`);
            baseline = await quiet();
          }
        } else {
          summary.accepted++;
          // A valid request may write, and may start jobs that write: wait for both.
          if (MUTATING.has(o.method) || o.template.startsWith('/user/device/table') || o.template.startsWith('/user/device/data')) baseline = await quiet();
        }
      }
      const takesInput = (o.op.parameters ?? []).some((p) => p.in === 'path' || p.required) || o.op.requestBody !== undefined;
      if (takesInput && refusedHere === 0) uncovered.push(`${o.key} (no case was refused)`);
    }

    // The run's figures go to docs/reliability.md.
    console.log(
      `route fuzz: seed ${SEED}, ${summary.operations} operations, ${summary.cases} cases (${summary.refused} refused, ${summary.accepted} accepted) in ${((Date.now() - started) / 1000).toFixed(1)} s; statuses ${JSON.stringify(summary.byStatus)}`,
    );
    expect({ seed: SEED, uncovered }).toEqual({ seed: SEED, uncovered: [] });
    expect({ seed: SEED, failures }).toEqual({ seed: SEED, failures: [] });
  }, 300_000);
});
