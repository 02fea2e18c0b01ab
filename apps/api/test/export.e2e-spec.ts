import { getDataSourceToken } from '@nestjs/typeorm';
import { DataCacheRepository } from '@dts/persistence';
import { randomBytes } from 'node:crypto';
import { get as httpGet, type ClientRequest } from 'node:http';
import type { DataSource } from 'typeorm';
import { accountWithCredentials, bearer } from './support/accounts';
import { eventually } from '@dts/platform';
import { expectError, expectSuccess } from './support/envelope';
import { startTestService, TEST_SECRETS, type TestService } from './support/harness';
import { lpp } from './support/payloads';

/*
 * GET /user/device/table/{eui} and GET /user/device/data/{eui} as CSV and NDJSON downloads, chosen
 * by `format` or Accept: the same rows as the JSON form, streamed alike.
 */

type Caller = Awaited<ReturnType<typeof accountWithCredentials>>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows are read member by member
type Json = Record<string, any>;

const newEui = () => randomBytes(8).toString('hex').toUpperCase();
const T0 = 1_777_000_000;

/** What a spreadsheet would run as a formula, quotes and commas inside, as a codec hands it out. */
const FORMULA = '=HYPERLINK("http://203.0.113.9/x","a,b")';
const NOTE = 'say "hi",\nthen go';
const CODEC = `
function decodeUplink(input) {
  var b = input.bytes;
  return { data: { temperature: -b[0] / 10, firmware_version: ${JSON.stringify(FORMULA)}, note: ${JSON.stringify(NOTE)}, tags: ['x', 1] } };
}`;
/** An account network whose name is itself a formula, with a quote, a comma and a line break. */
const NETWORK_NAME = '-2+3,"net"\nB';

/** RFC 4180: records of fields; quoted fields may hold `""`, commas and line breaks. Throws on anything else. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let i = 0;
  while (i < text.length) {
    const record: string[] = [];
    for (;;) {
      let field = '';
      if (text[i] === '"') {
        i++;
        for (;;) {
          const q = text.indexOf('"', i);
          if (q < 0) throw new Error('unterminated quoted field');
          field += text.slice(i, q);
          if (text[q + 1] === '"') {
            field += '"';
            i = q + 2;
          } else {
            i = q + 1;
            break;
          }
        }
      } else {
        const end = text.slice(i).search(/[,\r\n"]/);
        const stop = end < 0 ? text.length : i + end;
        if (text[stop] === '"') throw new Error(`a quote inside an unquoted field at ${stop}`);
        field = text.slice(i, stop);
        i = stop;
      }
      record.push(field);
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text.startsWith('\r\n', i)) {
        i += 2;
        break;
      }
      throw new Error(`record not ended by CRLF at ${i}: ${JSON.stringify(text.slice(i, i + 10))}`);
    }
    records.push(record);
  }
  return records;
}

/** The cell a CSV must hold for a JSON value (the route's documented rules, restated). */
function expectedCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

const TABLE_COLUMNS = [
  ...[
    'uid',
    'time_stamp_unix',
    'devEUI',
    'port',
    'SF',
    'RSSI',
    'SNR',
    'payload_raw',
    'network',
    'geoloc_lat',
    'geoloc_lon',
    'geoloc_alt',
    'api_ref',
    'user_ref',
    'device_ref',
  ].map((m) => `uplink.${m}`),
  'payload_decoded',
  'payload_port',
  'payload_length',
  'payload_hex',
  'payload_valid',
  'payload_errors',
  'payload_warnings',
  'ts_network_unix',
  'ts_net_unix',
  'ts_gps_unix',
  'ts_unix',
  'LAT',
  'LON',
  'ALT',
  'geoloc_LAT',
  'geoloc_LON',
  'geoloc_ALT',
  'temperature',
  'humidity',
  'battery_voltage',
  'battery_percent',
  'firmware_version',
];
const tableCell = (row: Json, column: string) => (column.startsWith('uplink.') ? row.uplink[column.slice(7)] : row[column]);

describe('history exports: CSV and NDJSON', () => {
  let svc: TestService;
  let alice: Caller;
  let bob: Caller;
  let db: DataSource;
  /** Codec device: three uplinks, one with a network position, one through the formula-named network. */
  let main: { uid: number; devEUI: string };
  /** Cayenne device without any network position. */
  let plain: { uid: number; devEUI: string };

  const get = (who: Caller | null, path: string, headers: Record<string, string> = {}) => {
    const req = svc.http().get(path);
    if (who) req.set(...bearer(who.appToken));
    for (const [k, v] of Object.entries(headers)) req.set(k, v);
    return req.buffer(true).parse((res, done) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => done(null, text));
    });
  };
  /** The body as text (any content type) and, when it is JSON, parsed. */
  const fetchText = async (who: Caller | null, path: string, headers: Record<string, string> = {}) => {
    const res = await get(who, path, headers);
    const text = res.body as unknown as string;
    return { status: res.status, type: String(res.headers['content-type']), disposition: res.headers['content-disposition'] as string | undefined, text, res };
  };
  const json = async (who: Caller, path: string) => {
    const r = await fetchText(who, path);
    expect(r.type).toMatch(/^application\/json/);
    const body = JSON.parse(r.text) as Json;
    expect(body).toMatchObject({ success: true, errors: [] });
    return body;
  };
  const ndjson = (text: string) => {
    expect(text === '' || text.endsWith('\n')).toBe(true);
    return text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Json);
  };
  const ingest = async (items: object[]) => {
    const res = await svc.http().post('/ingest/rest').set('X-Ingest-Secret', TEST_SECRETS.INGEST_SECRET).send(items);
    expect(expectSuccess<{ accepted: number; rejected: unknown[] }>(res, 202)).toEqual({ accepted: items.length, duplicates: 0, rejected: [] });
  };

  beforeAll(async () => {
    svc = await startTestService();
    db = svc.app.get<DataSource>(getDataSourceToken());
    [alice, bob] = await Promise.all([accountWithCredentials(svc, 'alice'), accountWithCredentials(svc, 'bob')]);
    const codec = expectSuccess<{ uid: number }>(
      await svc
        .http()
        .post('/user/codec')
        .set(...bearer(alice.appToken))
        .send({ name: 'formulas', script: CODEC }),
      201,
    );
    expectSuccess(
      await svc
        .http()
        .post('/user/network')
        .set(...bearer(alice.appToken))
        .send({ name: NETWORK_NAME, adapter: 'chirpstack', base_url: 'https://8.8.4.4:8080', api_key: 'key-0123456789' }),
      201,
    );
    main = expectSuccess(
      await svc
        .http()
        .post(`/user/device/${newEui()}`)
        .set(...bearer(alice.appToken))
        .send({ decoder_ref: codec.uid }),
      201,
    );
    plain = expectSuccess(
      await svc
        .http()
        .post(`/user/device/${newEui()}`)
        .set(...bearer(alice.appToken))
        .send({ decoder_ref: 2 }),
      201,
    );
    await ingest([
      { devEUI: main.devEUI, port: 1, payload_hex: '0F', time_stamp_unix: T0, fcnt: 1, RSSI: -90 },
      { devEUI: main.devEUI, port: 1, payload_hex: '2A', time_stamp_unix: T0 + 100, fcnt: 2, geoloc_lat: 52.1, geoloc_lon: 5.2, geoloc_alt: 7 },
      { devEUI: main.devEUI, port: 1, payload_hex: '05', time_stamp_unix: T0 + 200, fcnt: 3, network: NETWORK_NAME },
      { devEUI: plain.devEUI, port: 1, payload_hex: lpp({ t: -4.5, h: 40 }), time_stamp_unix: T0, fcnt: 1 },
      { devEUI: plain.devEUI, port: 1, payload_hex: lpp({ t: 3 }), time_stamp_unix: T0 + 60, fcnt: 2 },
    ]);
  }, 60_000);
  afterAll(() => svc?.close());

  describe('table', () => {
    it('answers CSV for Accept: text/csv, a header line and one CRLF record per JSON row, cell for cell', async () => {
      const rows = (await json(alice, `/user/device/table/${main.devEUI}`)).data as Json[];
      expect(rows).toHaveLength(3);
      const r = await fetchText(alice, `/user/device/table/${main.devEUI}`, { Accept: 'text/csv' });
      expect(r.status).toBe(200);
      expect(r.type).toBe('text/csv; charset=utf-8');
      expect(r.disposition).toBe(`attachment; filename="${main.devEUI}-table.csv"`);
      expect(r.res.headers.vary).toMatch(/Accept/);
      const [header, ...records] = parseCsv(r.text);
      expect(header).toEqual(TABLE_COLUMNS);
      expect(records).toHaveLength(rows.length);
      records.forEach((record, i) => expect(record).toEqual(TABLE_COLUMNS.map((c) => expectedCell(tableCell(rows[i]!, c)))));
    });

    it('escapes quotes, commas and line breaks, and guards formulas but not negative numbers', async () => {
      const { text } = await fetchText(alice, `/user/device/table/${main.devEUI}?format=csv`);
      const [header, first, , third] = parseCsv(text);
      const cell = (record: string[] | undefined, column: string) => record![header!.indexOf(column)];
      // What reached the rows: the codec's strings and the network's name, as written by them.
      expect(cell(first, 'firmware_version')).toBe(`'${FORMULA}`);
      expect(text).toContain(`"'=HYPERLINK(""http://203.0.113.9/x"",""a,b"")"`);
      expect(JSON.parse(cell(first, 'payload_decoded')!)).toEqual({ temperature: -1.5, firmware_version: FORMULA, note: NOTE, tags: ['x', 1] });
      expect(cell(third, 'uplink.network')).toBe(`'${NETWORK_NAME}`);
      expect(text).toContain(`"'-2+3,""net""\nB"`);
      // Numbers stay numbers: a negative temperature and RSSI get no quote mark.
      expect(cell(first, 'temperature')).toBe('-1.5');
      expect(cell(first, 'uplink.RSSI')).toBe('-90');
      expect(text).toMatch(/,-1\.5,/);
      expect(cell(first, 'payload_valid')).toBe('true');
      expect(cell(first, 'humidity')).toBe('');
      // Every record ends with CRLF; the only bare LF is the one inside the quoted network name.
      expect(text.endsWith('\r\n')).toBe(true);
      expect(text.replace(/\r\n/g, '').split('\n')).toHaveLength(2);
    });

    it('answers NDJSON for format=ndjson (over Accept), one line per row equal to the JSON rows', async () => {
      const rows = (await json(alice, `/user/device/table/${main.devEUI}`)).data as Json[];
      const r = await fetchText(alice, `/user/device/table/${main.devEUI}?format=ndjson`, { Accept: 'text/csv' });
      expect(r.type).toBe('application/x-ndjson; charset=utf-8');
      expect(r.disposition).toBe(`attachment; filename="${main.devEUI}-table.ndjson"`);
      expect(ndjson(r.text)).toEqual(rows);
      const byAccept = await fetchText(alice, `/user/device/table/${main.devEUI}`, { Accept: 'application/x-ndjson' });
      expect(ndjson(byAccept.text)).toEqual(rows);
    });

    it('applies from, to, limit and order exactly as the JSON form does', async () => {
      const query = `from=${T0 + 50}&to=${T0 + 250}&order=desc&limit=2`;
      const rows = (await json(alice, `/user/device/table/${main.devEUI}?${query}`)).data as Json[];
      expect(rows.map((r) => r.uplink.time_stamp_unix)).toEqual([T0 + 200, T0 + 100]);
      expect(ndjson((await fetchText(alice, `/user/device/table/${main.devEUI}?${query}&format=ndjson`)).text)).toEqual(rows);
      const [, ...records] = parseCsv((await fetchText(alice, `/user/device/table/${main.devEUI}?${query}&format=csv`)).text);
      expect(records.map((r) => Number(r[0]))).toEqual(rows.map((r) => r.uplink.uid));
      // Nothing in the window: the header alone, or nothing.
      expect((await fetchText(alice, `/user/device/table/${main.devEUI}?from=${T0 + 1000}&format=csv`)).text).toBe(`${TABLE_COLUMNS.join(',')}\r\n`);
      expect((await fetchText(alice, `/user/device/table/${main.devEUI}?from=${T0 + 1000}&format=ndjson`)).text).toBe('');
    });

    it('keeps JSON for no Accept, */*, unknown types and q-weighted preferences', async () => {
      const path = `/user/device/table/${plain.devEUI}`;
      for (const accept of ['*/*', 'text/html', 'application/json, text/csv;q=0.5', 'text/csv;q=0']) {
        expect((await fetchText(alice, path, { Accept: accept })).type).toMatch(/^application\/json/);
      }
      expect((await fetchText(alice, path, { Accept: 'application/json;q=0.4, text/csv;q=0.9' })).type).toMatch(/^text\/csv/);
      expect((await fetchText(alice, path, { Accept: 'text/*' })).type).toMatch(/^text\/csv/);
      expect((await fetchText(alice, `${path}?format=json`, { Accept: 'text/csv' })).type).toMatch(/^application\/json/);
    });
  });

  describe('data', () => {
    it('has the network position columns only when the device’s data has a position', async () => {
      const base = ['uid', 'ts_unix', 'time_stamp', 'humidity', 'temperature', 'battery'];
      const mainRows = (await json(alice, `/user/device/data/${main.devEUI}`)).data as Json[];
      const [header, ...records] = parseCsv((await fetchText(alice, `/user/device/data/${main.devEUI}`, { Accept: 'text/csv' })).text);
      expect(header).toEqual([...base, 'geoloc_LAT', 'geoloc_LON', 'geoloc_ALT']);
      records.forEach((record, i) => expect(record).toEqual(header!.map((c) => expectedCell(mainRows[i]![c]))));
      expect(records[1]!.slice(-3)).toEqual(['52.1', '5.2', '7']);
      expect(records[0]!.slice(-3)).toEqual(['', '', '']);

      const r = await fetchText(alice, `/user/device/data/${plain.devEUI}?format=csv`);
      expect(r.disposition).toBe(`attachment; filename="${plain.devEUI}-data.csv"`);
      const [plainHeader, ...plainRecords] = parseCsv(r.text);
      expect(plainHeader).toEqual(base);
      expect(plainRecords.map((p) => p[4])).toEqual(['-4.5', '3']);
    });

    it('with filter: uid, ts_unix, ts_net_unix and the requested members, in CSV and NDJSON', async () => {
      const path = `/user/device/data/${main.devEUI}?filter=temperature,geoloc_LAT&order=desc`;
      const rows = (await json(alice, path)).data as Json[];
      const [header, ...records] = parseCsv((await fetchText(alice, `${path}&format=csv`)).text);
      expect(header).toEqual(['uid', 'ts_unix', 'ts_net_unix', 'temperature', 'geoloc_LAT']);
      expect(records).toEqual(rows.map((row) => header!.map((c) => expectedCell(row[c]))));
      expect(ndjson((await fetchText(alice, `${path}&format=ndjson`)).text)).toEqual(rows);
      expectError(
        await svc
          .http()
          .get(`/user/device/data/${main.devEUI}?filter=nope&format=csv`)
          .set(...bearer(alice.appToken)),
        400,
        'VALIDATION_FAILED',
        'filter',
      );
    });

    it('never answers a CSV or NDJSON request from the JSON cache', async () => {
      const cache = svc.app.get(DataCacheRepository);
      const rows = (await json(alice, `/user/device/data/${plain.devEUI}`)).data as Json[];
      // The read above asked the worker to build the entry; wait until it is fresh.
      await eventually(
        async () => {
          const status = await cache.status(plain.uid);
          return status.builtVersion === status.version;
        },
        { what: 'a fresh cache entry', intervalMs: 50 },
      ).catch(() => undefined); // the expectation says what it is
      const status = await cache.status(plain.uid);
      expect(status.builtVersion).toBe(status.version);
      expect((await json(alice, `/user/device/data/${plain.devEUI}`)).data).toEqual(rows);
      const csv = await fetchText(alice, `/user/device/data/${plain.devEUI}`, { Accept: 'text/csv' });
      expect(csv.type).toBe('text/csv; charset=utf-8');
      expect(parseCsv(csv.text)).toHaveLength(1 + rows.length);
      expect(ndjson((await fetchText(alice, `/user/device/data/${plain.devEUI}`, { Accept: 'application/x-ndjson' })).text)).toEqual(rows);
    });
  });

  describe('refusals are JSON envelopes', () => {
    it('400 for a bad format, naming it', async () => {
      for (const route of ['table', 'data']) {
        const res = await svc
          .http()
          .get(`/user/device/${route}/${main.devEUI}?format=xlsx`)
          .set(...bearer(alice.appToken))
          .set('Accept', 'text/csv');
        expectError(res, 400, 'VALIDATION_FAILED', 'format');
        expect(res.headers['content-type']).toMatch(/^application\/json/);
      }
      expectError(
        await svc
          .http()
          .get(`/user/device/table/not-an-eui?format=csv`)
          .set(...bearer(alice.appToken)),
        400,
        'VALIDATION_FAILED',
        'eui',
      );
    });

    it('401 without credentials and 404 for another account’s device', async () => {
      expectError(await svc.http().get(`/user/device/table/${main.devEUI}?format=csv`), 401, 'AUTH_REQUIRED');
      const res = await svc
        .http()
        .get(`/user/device/data/${main.devEUI}`)
        .set(...bearer(bob.appToken))
        .set('Accept', 'text/csv');
      expectError(res, 404, 'NOT_FOUND');
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expectError(
        await svc
          .http()
          .get(`/user/device/table/${newEui()}?format=ndjson`)
          .set(...bearer(alice.appToken)),
        404,
        'NOT_FOUND',
      );
    });
  });

  // Issue 28: ten concurrent `limit=10` reads of a dashboard took the four export slots and got 429s.
  it('does not count small reads (limit ≤ 1,000) against EXPORTS_PER_ACCOUNT, which still bounds exports', async () => {
    const carol = await accountWithCredentials(svc, 'carol');
    const long = expectSuccess<{ uid: number; devEUI: string }>(
      await svc
        .http()
        .post(`/user/device/${newEui()}`)
        .set(...bearer(carol.appToken))
        .send({ decoder_ref: 2 }),
      201,
    );
    // Long enough that a reader that takes nothing holds its export open (the socket buffers fill).
    await db.query(
      `INSERT INTO uplinks (device_id, received_at, network_ref, port, fcnt, payload, rssi, snr, decoded, valid, temperature, humidity)
       SELECT $1, timestamptz '2026-01-01' + g * interval '1 minute', 4, 1, g, '\\x036700e5', -90, 7.5,
              jsonb_build_object('temperature', 22.9, 'padding', repeat('x', 400)), true, 22.9, 40 + g % 20
       FROM generate_series(1, 40000) g`,
      [long.uid],
    );
    const held: ClientRequest[] = [];
    /** An export whose client reads nothing: it holds its slot until it is closed. */
    const holdExport = (path: string) =>
      new Promise<number>((resolve, reject) => {
        const req = httpGet(`${svc.url}${path}`, { agent: false, headers: { Authorization: `Bearer ${carol.appToken}` } }, (res) => {
          res.pause();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', (error) => (held.includes(req) ? undefined : reject(error)));
        held.push(req);
      });
    const read = (path: string) =>
      svc
        .http()
        .get(path)
        .set(...bearer(carol.appToken));
    // A device with a short history, its data cache built: its whole history is known to be small.
    const short = expectSuccess<{ uid: number; devEUI: string }>(
      await svc
        .http()
        .post(`/user/device/${newEui()}`)
        .set(...bearer(carol.appToken))
        .send({ decoder_ref: 2 }),
      201,
    );
    const items = [1, 2, 3, 4, 5].map((fcnt) => ({
      devEUI: short.devEUI,
      port: 1,
      payload_hex: lpp({ t: 20 + fcnt, h: 50 }),
      fcnt,
      time_stamp_unix: 1_767_225_600 + fcnt * 60,
    }));
    expectSuccess(await svc.http().post('/ingest/rest').set('X-Ingest-Secret', TEST_SECRETS.INGEST_SECRET).send(items), 202);
    expect((await read(`/user/device/data/${short.devEUI}`)).body.data).toHaveLength(5);
    const cache = svc.app.get(DataCacheRepository);
    await eventually(
      async () => {
        const status = await cache.status(short.uid);
        return status.version > 0 && status.builtVersion === status.version;
      },
      { what: 'the short history cached', intervalMs: 100 },
    );
    try {
      // The account's four export slots (the default EXPORTS_PER_ACCOUNT), taken by reads of the whole history.
      expect(await Promise.all([0, 1, 2, 3].map((i) => holdExport(`/user/device/${i % 2 ? 'data' : 'table'}/${long.devEUI}`)))).toEqual([200, 200, 200, 200]);
      // Reads that may be long are still refused: no limit, a limit over 1,000, a range.
      for (const path of [
        `/user/device/table/${long.devEUI}`,
        `/user/device/data/${long.devEUI}?limit=1001`,
        `/user/device/data/${long.devEUI}?from=${1_767_225_600}&to=${1_767_312_000}&format=csv`,
      ]) {
        const refused = await read(path);
        expectError(refused, 429, 'RATE_LIMITED');
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      }
      // A whole history served from the cache and known to hold few rows is a small read; the same
      // history as CSV, which the cache does not serve, is still an export.
      expect((await read(`/user/device/data/${short.devEUI}`)).body.data).toHaveLength(5);
      expectError(await read(`/user/device/data/${short.devEUI}?format=csv`), 429, 'RATE_LIMITED');
      // Meanwhile 24 small reads at once, of both views and all formats, are all answered in full.
      const small = await Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          read(`/user/device/${i % 2 ? 'data' : 'table'}/${long.devEUI}?limit=${i % 3 === 0 ? 1000 : 10}&order=desc${i % 4 === 1 ? '&format=ndjson' : ''}`),
        ),
      );
      expect(small.map((r) => r.status)).toEqual(small.map(() => 200));
      for (const [i, res] of small.entries()) {
        const rows = i % 4 === 1 ? ndjson(res.text) : (res.body.data as Json[]);
        expect(rows).toHaveLength(i % 3 === 0 ? 1000 : 10);
      }
      // A small read is still a read like any other: checked, authenticated and the owner's only.
      expectError(await read(`/user/device/data/${long.devEUI}?limit=0`), 400, 'VALIDATION_FAILED', 'limit');
      expectError(await svc.http().get(`/user/device/data/${long.devEUI}?limit=10`), 401, 'AUTH_REQUIRED');
      expectError(
        await svc
          .http()
          .get(`/user/device/table/${long.devEUI}?limit=10`)
          .set(...bearer(bob.appToken)),
        404,
        'NOT_FOUND',
      );
    } finally {
      for (const req of held) req.destroy();
    }
    // The slots free as the held exports close: a whole-history read is admitted again.
    await eventually(async () => expect((await read(`/user/device/data/${long.devEUI}?from=${2_000_000_000}`)).status).toBe(200), {
      what: 'a whole-history read admitted again',
      intervalMs: 50,
    });
  }, 120_000);

  it('streams a 20,000-row history completely in both formats', async () => {
    const ROWS = 20_000;
    const big = expectSuccess<{ uid: number; devEUI: string }>(
      await svc
        .http()
        .post(`/user/device/${newEui()}`)
        .set(...bearer(alice.appToken))
        .send({ decoder_ref: 2 }),
      201,
    );
    await db.query(
      `INSERT INTO uplinks (device_id, received_at, network_ref, port, fcnt, payload, rssi, snr, decoded, valid, temperature, humidity)
       SELECT $1, timestamptz '2026-01-01' + g * interval '1 minute', 4, 1, g, '\\x036700e5', -90, 7.5,
              '{"temperature": -22.9, "note": "a,\\"b\\""}'::jsonb, true, -22.9, 40 + g % 20
       FROM generate_series(1, $2) g`,
      [big.uid, ROWS],
    );
    const csv = await fetchText(alice, `/user/device/table/${big.devEUI}?format=csv`);
    const [header, ...records] = parseCsv(csv.text);
    expect(header).toEqual(TABLE_COLUMNS);
    expect(records).toHaveLength(ROWS);
    const uids = records.map((r) => Number(r[0]));
    expect(uids.every((u, i) => i === 0 || u > uids[i - 1]!)).toBe(true);
    expect(records[ROWS - 1]![TABLE_COLUMNS.indexOf('temperature')]).toBe('-22.9');
    expect(JSON.parse(records[ROWS - 1]![TABLE_COLUMNS.indexOf('payload_decoded')]!)).toEqual({ temperature: -22.9, note: 'a,"b"' });

    const lines = ndjson((await fetchText(alice, `/user/device/data/${big.devEUI}`, { Accept: 'application/x-ndjson' })).text);
    expect(lines).toHaveLength(ROWS);
    expect(lines.map((l) => l.uid)).toEqual(uids);
    expect(lines[ROWS - 1]).toMatchObject({ temperature: -22.9, time_stamp: '2026-01-14T21:20:00+00:00' });
  }, 120_000);
});
