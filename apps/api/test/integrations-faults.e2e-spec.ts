import type { UplinkEventWire } from '@dts/domain';
import { eventually } from '@dts/platform';
import { randomBytes } from 'node:crypto';
import { accountOverHttp, call } from './support/fault-load';
import { type FaultTopology, type Instance, startFaultTopology } from './support/services';
import { realDatabaseUrl, realRedisUrl } from './support/test-database';
import { WebhookReceiver } from './support/webhook-receiver';

/*
 * A worker killed with SIGKILL in the middle of a webhook delivery (the receiver has the request
 * and has not answered): once its lane's lease ends, another worker delivers that event again — at
 * least once, with the same webhook-id — then the rest of the device's events in order, and every
 * delivery is recorded once. The processes are the real ones from dist/, on a PostgreSQL and a
 * Redis of this suite's own (only with TEST_DATABASE_URL and TEST_REDIS_URL: in embedded mode the
 * worker lives inside the api process).
 */

const TITLE = 'a worker killed mid-delivery';
const suite = realDatabaseUrl && realRedisUrl ? describe : describe.skip;
const title = realDatabaseUrl && realRedisUrl ? TITLE : `${TITLE} (skipped: needs TEST_DATABASE_URL and TEST_REDIS_URL)`;
const EVENTS = 8;
/** Makes a lane's lease 3 × 2 s: the second worker takes the dead worker's lane within seconds. */
const TIMEOUT_MS = '2000';

suite(title, () => {
  let top: FaultTopology;
  let api: Instance;
  let cookie = '';
  const receiver = new WebhookReceiver();

  const json = (method: string, path: string, body?: unknown) => call(`${api.url}${path}`, { method, headers: { Cookie: cookie }, json: body });

  beforeAll(async () => {
    await receiver.start();
    top = await startFaultTopology();
    api = await top.startApi('api-1', { INTEGRATION_TIMEOUT_MS: TIMEOUT_MS });
    ({ cookie } = await accountOverHttp(api.url, 'hooks'));
  }, 180_000);

  afterAll(async () => {
    await top?.close();
    await receiver.stop();
  }, 60_000);

  it('delivers the event in flight again, then the rest in order; each delivery recorded once', async () => {
    const eui = randomBytes(8).toString('hex').toUpperCase();
    expect((await json('POST', `/user/device/${eui}`, { decoder_ref: 2 })).status).toBe(201);
    const created = await json('POST', '/user/integration', { name: 'kill', kind: 'webhook', url: `${receiver.url}/kill`, events: ['uplink'] });
    expect(created.status).toBe(201);
    const integration = created.body!.data as { uid: number; secret: string };
    receiver.secret('/kill', integration.secret);

    const first = await top.startWorker('worker-1', { INTEGRATION_TIMEOUT_MS: TIMEOUT_MS });
    // The third event never gets an answer from this receiver: the worker dies holding it.
    let killed = false;
    let inFlight = '';
    receiver.answer('/kill', (r) => {
      if (!killed && (r.body as UplinkEventWire).data?.temperature === 3) {
        killed = true;
        inFlight = r.id;
        first.proc.child.kill('SIGKILL');
        return 'hang';
      }
      return 200;
    });
    const ingest = await call(`${api.url}/ingest/rest`, {
      method: 'POST',
      headers: { 'X-Ingest-Secret': top.ingestSecret },
      json: Array.from({ length: EVENTS }, (_, i) => ({
        devEUI: eui,
        port: 1,
        payload_hex: `0167${((i + 1) * 10).toString(16).padStart(4, '0')}`,
        fcnt: i + 1,
      })),
    });
    expect(ingest.status).toBe(202);
    await eventually(() => killed, { what: 'the first worker to be killed mid-delivery of the third event' });
    await first.proc.exited;
    expect(receiver.at('/kill')).toHaveLength(2);

    const killedAt = Date.now();
    await top.startWorker('worker-2', { INTEGRATION_TIMEOUT_MS: TIMEOUT_MS });
    // Every event once at least (a repeat of one answered before the kill counts once).
    const got = await receiver.waitFor('/kill', (l) => new Set(l.map((r) => r.id)).size >= EVENTS, 60_000);
    const recoveredIn = Date.now() - killedAt;
    // The worker records the answers just after the receiver has them: wait for the last record,
    // after which nothing more is sent.
    const recorded = () =>
      top.query<{ state: string; attempts: number; n: number }>(
        `SELECT state, attempts, count(*) OVER (PARTITION BY event_id)::int AS n FROM integration_deliveries WHERE integration_id = $1 ORDER BY id`,
        [integration.uid],
      );
    const rows = await eventually(
      async () => {
        const now = await recorded();
        expect(now.filter((r) => r.state === 'pending')).toEqual([]);
        return now;
      },
      { what: 'every delivery to be recorded' },
    );

    // In order once the receiver drops repeats by webhook-id, as the standard asks of it. The event in
    // flight was sent again; of those answered before the kill, at most the last (its record still
    // being written) may come again.
    const answered = receiver.at('/kill');
    const firstOf = answered.filter((r, i) => answered.findIndex((o) => o.id === r.id) === i);
    expect(firstOf.map((r) => (r.body as UplinkEventWire).data.temperature)).toEqual(Array.from({ length: EVENTS }, (_, i) => i + 1));
    expect(got.every((r) => r.verified)).toBe(true);
    expect(receiver.attempts.get(inFlight)).toBe(2);
    const repeated = [...receiver.attempts.entries()].filter(([id, n]) => id !== inFlight && n > 1);
    expect(repeated.length).toBeLessThanOrEqual(1);
    // Recorded once each: one row per event, delivered, with the one attempt that was answered.
    expect(rows).toEqual(Array.from({ length: EVENTS }, () => ({ state: 'delivered', attempts: 1, n: 1 })));
    process.stdout.write(`webhook worker kill: lane taken over and the rest delivered in ${recoveredIn} ms\n`);
  }, 180_000);
});
