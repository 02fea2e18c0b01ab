import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accountOverHttp, call } from './support/fault-load';
import { judgedProbe, probeDuring, WITHIN_BOUNDS } from './support/latency-probe';
import { freePort } from '@dts/platform';
import { API_MAIN, type Proc, startProcess, stopProcesses, waitReady } from './support/processes';
import { realDatabaseUrl } from './support/test-database';

/*
 * The cost of hostile input on the embedded database (`npm start` with no settings): an api process
 * of its own from dist/, PGlite under DATA_DIR on its own thread, the worker in process. A series
 * over two years in daily buckets of a device with 20,000 uplinks took 49–62 s there and held the
 * api's event loop the whole time: /health/live did not answer, nor did any other account. Now the
 * database runs on a thread of its own and the series reads the daily rollup.
 * Only in the embedded pass: it is about the embedded database, which the api process makes itself.
 */
const suite = realDatabaseUrl ? describe.skip : describe;
const DAY = 86_400;
const UPLINKS = 20_000;
/** The bound on the series read itself: the rollup answers it in milliseconds; uplinks would take a minute. */
const SERIES_BOUND_MS = 5_000;

suite('the cost of hostile input on the embedded database', () => {
  let api: Proc;
  let url = '';
  let dataDir = '';

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'dts-embedded-cost-'));
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    api = startProcess('api', process.execPath, [API_MAIN], {
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '1000000',
      AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
    });
    await waitReady(`${url}/health/ready`, api, 90_000);
  }, 120_000);

  afterAll(async () => {
    if (api) await stopProcesses([api]);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a series over two years in daily buckets of 20,000 uplinks: answered in seconds, health answering throughout', async () => {
    const attacker = await accountOverHttp(url, 'years');
    const as = { Authorization: `Bearer ${attacker.token}` };
    const eui = randomBytes(8).toString('hex').toUpperCase();
    expect((await call(`${url}/user/device/${eui}`, { method: 'POST', headers: as, json: { decoder_ref: 2 } })).status).toBe(201);
    const now = Math.floor(Date.now() / 1000);
    const from = now - 730 * DAY;
    const step = Math.floor((730 * DAY) / UPLINKS);
    for (let first = 0; first < UPLINKS; first += 1_000) {
      const items = Array.from({ length: 1_000 }, (_, i) => ({
        devEUI: eui,
        port: 1,
        // Cayenne LPP: temperature (channel 1) and humidity (channel 2).
        payload_hex: `0167${(200 + ((first + i) % 100)).toString(16).padStart(4, '0')}026864`,
        fcnt: first + i,
        time_stamp_unix: from + (first + i) * step,
      }));
      const answer = await call(`${url}/ingest/rest`, { method: 'POST', headers: as, json: items });
      expect([answer.status, (answer.body!.data as { accepted: number }).accepted]).toEqual([202, 1_000]);
    }
    const name = 'series over two years in daily buckets, 20,000 uplinks, embedded database';
    const { outcome, probe } = await probeDuring(`${url}/health/live`, name, async () => {
      const started = Date.now();
      const answer = await call(`${url}/user/device/series/${eui}?members=temperature&from=${from}&to=${now}&interval=1d`, { headers: as });
      return { answer, ms: Date.now() - started };
    });
    process.stdout.write(`hostile cost: ${name}: the series answered in ${outcome.ms} ms\n`);
    expect(outcome.answer.status).toBe(200);
    const series = outcome.answer.body!.data as { t: number[]; members: { temperature: { count: number[] } } };
    expect(series.members.temperature.count.reduce((a, b) => a + b, 0)).toBe(UPLINKS);
    expect(series.t.length).toBeGreaterThan(700);
    expect(outcome.ms).toBeLessThan(SERIES_BOUND_MS);
    expect(judgedProbe(name, probe)).toEqual(WITHIN_BOUNDS(name));
  });
});
