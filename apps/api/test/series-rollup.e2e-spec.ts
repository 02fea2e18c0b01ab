import type { SeriesWire } from '@dts/domain';
import { accountWithCredentials, tokenClient } from './support/accounts';
import { eventually } from '@dts/platform';
import { expectError, expectSuccess } from './support/envelope';
import { startTestService, TEST_SECRETS, type TestService } from './support/harness';
import { lpp } from './support/payloads';

/*
 * GET /user/device/series/{eui} over the hourly rollup (docs/api.md §5): buckets of an hour and
 * more answer the completed hours from the rollup, materialized by the first read, and stay the
 * uplinks' answer when uplinks arrive late, are re-decoded, or the device changes hands.
 */

type Caller = Awaited<ReturnType<typeof accountWithCredentials>>;
const HOUR = 3_600;
/** An hour boundary well in the past. */
const T0 = 1_776_700_800;
const EUI = '70B3D57ED0000F01';

describe('series over the hourly rollup', () => {
  let svc: TestService;
  let alice: Caller;
  let bob: Caller;

  const ingest = async (items: object[]) =>
    expect(
      expectSuccess<{ accepted: number }>(await svc.http().post('/ingest/rest').set('X-Ingest-Secret', TEST_SECRETS.INGEST_SECRET).send(items), 202).accepted,
    ).toBe(items.length);
  const as = (who: Caller) => tokenClient(svc, who.masterToken);
  /** Hours 0 … 3 of T0, the range cut 10 minutes into the first and 10 minutes before the end of the last. */
  const series = async (who: Caller, interval = '1h') =>
    expectSuccess<SeriesWire>(
      await as(who).get(`/user/device/series/${EUI}?members=temperature&from=${T0 + 600}&to=${T0 + 4 * HOUR - 601}&interval=${interval}`),
    );

  beforeAll(async () => {
    svc = await startTestService();
    [alice, bob] = await Promise.all([accountWithCredentials(svc, 'alice'), accountWithCredentials(svc, 'bob')]);
    await alice.client.devices.register(EUI, { label: 'rollup', decoder_ref: 2 });
    // Four hours, one reading every 5 minutes: temperature = the minute of the range / 10.
    const items = [];
    for (let m = 0; m < 4 * 60; m += 5) items.push({ devEUI: EUI, port: 1, payload_hex: lpp({ t: m / 10 }), time_stamp_unix: T0 + m * 60, fcnt: m });
    await ingest(items);
  });
  afterAll(() => svc?.close());

  it('answers the cut hours at from and to from the uplinks, the whole hours from the rollup, as a single pass would', async () => {
    const answer = await series(alice);
    // First hour: minutes 10 … 55 (10 readings); last hour: minutes 180 … 225 (10 readings).
    expect(answer.t).toEqual([T0, T0 + HOUR, T0 + 2 * HOUR, T0 + 3 * HOUR]);
    expect(answer.members.temperature).toEqual({
      min: [1, 6, 12, 18],
      avg: [3.25, 8.75, 14.75, 20.25],
      max: [5.5, 11.5, 17.5, 22.5],
      count: [10, 12, 12, 10],
    });
    // Coarser buckets add the same parts up; a second read answers the same.
    const day = await series(alice, '1d');
    expect(day.members.temperature).toEqual({ min: [1], avg: [11.75], max: [22.5], count: [44] });
    expect(await series(alice)).toEqual(answer);
  });

  it('a late uplink in an hour already answered from the rollup counts at once', async () => {
    await series(alice);
    await ingest([{ devEUI: EUI, port: 1, payload_hex: lpp({ t: 99 }), time_stamp_unix: T0 + HOUR + 90, fcnt: 1000 }]);
    const after = await series(alice);
    expect(after.members.temperature!.max).toEqual([5.5, 99, 17.5, 22.5]);
    expect(after.members.temperature!.count).toEqual([10, 13, 12, 10]);
  });

  it('a hand-over keeps the series; a re-decode with another decoder changes it everywhere', async () => {
    const before = await series(alice);
    expectSuccess(await as(alice).post(`/user/device/handover/${EUI}`, { username: bob.account.username }), 201);
    expectSuccess(await as(bob).post(`/user/device/handover/${EUI}/accept`));
    expectError(await as(alice).get(`/user/device/series/${EUI}?members=temperature`), 404, 'NOT_FOUND');
    expect(await series(bob)).toEqual(before);
    // Decoder 1 stores the payload raw: no temperature any more, once the worker has re-decoded.
    await bob.client.meta.update(EUI, { decoder_ref: 1 });
    let answer = await series(bob);
    await eventually(async () => !(answer = await series(bob)).members.temperature!.count!.some((n) => n !== 0), {
      what: 'the re-decode to reach the series',
      timeoutMs: 20_000,
      intervalMs: 200,
    }).catch(() => undefined); // the expectations say what it is
    expect(answer.t).toEqual(before.t);
    expect(answer.members.temperature).toEqual({
      min: [null, null, null, null],
      avg: [null, null, null, null],
      max: [null, null, null, null],
      count: [0, 0, 0, 0],
    });
  });
});
