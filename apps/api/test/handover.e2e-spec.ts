import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { accountWithCredentials, bearer, tokenClient } from './support/accounts';
import { expectError, expectSuccess } from './support/envelope';
import { startTestService, type TestService } from './support/harness';

type Caller = Awaited<ReturnType<typeof accountWithCredentials>>;
const newEui = () => randomBytes(8).toString('hex').toUpperCase();
const CODEC = 'function decodeUplink(input) { return { data: { n: input.bytes.length } }; }';

/**
 * Hand-over by consent (docs/api.md §4): an offer the receiving account accepts or declines.
 * Before, `owner_ref` moved a device into any account: 50 devices pushed into a victim filled its
 * max_devices, and the moved device kept the old owner's network (its API key), codec and shares.
 */
describe('device hand-over by consent', () => {
  let svc: TestService;
  let alice: Caller;
  let bob: Caller;
  let carol: Caller;

  const as = (who: Caller) => tokenClient(svc, who.masterToken);
  const offers = async (who: Caller) =>
    expectSuccess<{ received: { devEUI: string }[]; made: { devEUI: string }[] }>(await as(who).get('/user/device/handover'));
  const devices = async (who: Caller) => expectSuccess<string[]>(await as(who).get('/user/device'));

  beforeAll(async () => {
    svc = await startTestService({ env: { ACCOUNT_MAX_DEVICES: '3' } });
    [alice, bob, carol] = await Promise.all([
      accountWithCredentials(svc, 'ho_alice'),
      accountWithCredentials(svc, 'ho_bob'),
      accountWithCredentials(svc, 'ho_carol'),
    ]);
  });
  afterAll(() => svc?.close());

  it('owner_ref makes an offer, nothing moves until the receiver acts; declining and withdrawing end it', async () => {
    const eui = newEui();
    expectSuccess(await as(alice).post(`/user/device/${eui}`, { label: 'offered' }), 201);
    const [meta] = expectSuccess<[{ owner_id?: number; devEUI: string }]>(await as(alice).post(`/user/device/meta/${eui}`, { owner_ref: bob.account.id }));
    expect(meta.devEUI).toBe(eui);
    expect((await offers(bob)).received.map((o) => o.devEUI)).toEqual([eui]);
    expect((await offers(alice)).made).toEqual([
      expect.objectContaining({
        devEUI: eui,
        from: { user_id: alice.account.id, username: alice.account.username },
        to: { user_id: bob.account.id, username: bob.account.username },
      }),
    ]);
    expect(await devices(bob)).not.toContain(eui);
    expect(await devices(alice)).toContain(eui);

    expect(expectSuccess(await as(bob).post(`/user/device/handover/${eui}/decline`))).toEqual({ devEUI: eui, outcome: 'declined' });
    expect((await offers(bob)).received).toEqual([]);
    expectError(await as(bob).post(`/user/device/handover/${eui}/accept`), 404, 'NOT_FOUND', 'eui');
    expect(await devices(alice)).toContain(eui);

    expectSuccess(await as(alice).post(`/user/device/handover/${eui}`, { username: bob.account.username }), 201);
    // A new offer replaces the open one.
    expectSuccess(await as(alice).post(`/user/device/handover/${eui}`, { username: carol.account.username }), 201);
    expect((await offers(bob)).received).toEqual([]);
    expect((await offers(carol)).received.map((o) => o.devEUI)).toEqual([eui]);
    expect(expectSuccess(await as(alice).delete(`/user/device/handover/${eui}`))).toEqual({ devEUI: eui, outcome: 'withdrawn' });
    expect((await offers(carol)).received).toEqual([]);
    expectError(await as(carol).post(`/user/device/handover/${eui}/accept`), 404, 'NOT_FOUND');
  });

  it('pushing devices at an account fills nothing: its max_devices is checked when it accepts', async () => {
    const mine = await Promise.all(
      [0, 1, 2].map(async () => {
        const eui = newEui();
        expectSuccess(await as(carol).post(`/user/device/${eui}`, {}), 201);
        return eui;
      }),
    );
    for (const eui of mine) expectSuccess(await as(carol).post(`/user/device/handover/${eui}`, { username: bob.account.username }), 201);
    expect((await offers(bob)).received).toHaveLength(3);
    // Bob still registers his own devices up to his limit.
    const own = [newEui(), newEui(), newEui()];
    for (const eui of own) expectSuccess(await as(bob).post(`/user/device/${eui}`, {}), 201);
    expectError(await as(bob).post(`/user/device/handover/${mine[0]}/accept`), 403, 'DEVICE_LIMIT_REACHED');
    expect(await devices(carol)).toContain(mine[0]);
    expectSuccess(await as(bob).delete(`/user/device/${own[0]}`));
    expectSuccess(await as(bob).post(`/user/device/handover/${mine[0]}/accept`));
    expect(await devices(bob)).toContain(mine[0]);
    expect(await devices(carol)).not.toContain(mine[0]);
    for (const eui of mine.slice(1)) expectSuccess(await as(bob).post(`/user/device/handover/${eui}/decline`));
  });

  it('on acceptance the old owner’s network and codec fall back, shares end, the old signed links stop working', async () => {
    const dave = await accountWithCredentials(svc, 'ho_dave');
    const erin = await accountWithCredentials(svc, 'ho_erin');
    const eui = newEui();
    const network = expectSuccess<{ uid: number }>(
      await as(dave).post('/user/network', { name: 'dave cs', adapter: 'chirpstack', base_url: 'https://8.8.4.4:8080', api_key: 'dave-secret-key-0123' }),
      201,
    ).uid;
    const codec = expectSuccess<{ uid: number }>(await as(dave).post('/user/codec', { name: 'dave codec', script: CODEC }), 201).uid;
    expectSuccess(await as(dave).post(`/user/device/${eui}`, { network_ref: network, decoder_ref: codec }), 201);
    expectSuccess(await as(dave).post(`/user/device/meta/${eui}`, { user_ref: dave.account.id }));
    expectSuccess(await as(dave).post(`/user/device/share/${eui}`, { username: carol.account.username }), 201);
    expect(expectSuccess(await as(dave).get(`/user/device/share/${eui}`))).toEqual([{ user_id: carol.account.id, username: carol.account.username }]);
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: { r: 1, g: 2, b: 3 } } })
      .png()
      .toBuffer();
    const image = expectSuccess<{ hash: string; meta: { url: string } }>(
      await svc
        .http()
        .post(`/user/device/image/${eui}`)
        .set(...bearer(dave.masterToken))
        .attach('file', png, 'p.png'),
      201,
    );
    const oldLink = new URL(image.meta.url);
    expect((await svc.http().get(`${oldLink.pathname}${oldLink.search}`)).status).toBe(200);

    expectSuccess(await as(dave).post(`/user/device/handover/${eui}`, { username: erin.account.username }), 201);
    const moved = expectSuccess<{ network_ref: number; decoder_ref: number; user_ref: number | null; owner_username?: string }>(
      await as(erin).post(`/user/device/handover/${eui}/accept`),
    );
    expect(moved).toMatchObject({ network_ref: 1, decoder_ref: 1, user_ref: null });

    expectError(await as(dave).get(`/user/device/meta/${eui}`), 404, 'NOT_FOUND');
    expect(expectSuccess<{ result: string }>(await as(erin).get(`/user/device/result/${eui}/${carol.account.id}`)).result).toBe('none');
    expectError(await as(carol).get(`/user/device/meta/${eui}`), 404, 'NOT_FOUND');
    expect(expectSuccess(await as(erin).get(`/user/device/share/${eui}`))).toEqual([]);
    expectError(await svc.http().get(`${oldLink.pathname}${oldLink.search}`), 403, 'FORBIDDEN');
    const fresh = new URL(expectSuccess<{ meta: { url: string } }>(await as(erin).get(`/user/device/image/${eui}/${image.hash}`)).meta.url);
    expect((await svc.http().get(`${fresh.pathname}${fresh.search}`)).status).toBe(200);
  });

  it('refuses bad offers: to oneself, to nobody, and by a user the device is only shared with', async () => {
    const eui = newEui();
    expectSuccess(await as(alice).post(`/user/device/${eui}`, {}), 201);
    expectSuccess(await as(alice).post(`/user/device/share/${eui}`, { username: carol.account.username }), 201);
    expectError(await as(alice).post(`/user/device/handover/${eui}`, { username: alice.account.username }), 400, 'VALIDATION_FAILED', 'username');
    expectError(await as(alice).post(`/user/device/handover/${eui}`, { username: 'nobody_at_all' }), 404, 'NOT_FOUND', 'username');
    expectError(await as(alice).post(`/user/device/handover/${eui}`, {}), 400, 'VALIDATION_FAILED', 'username');
    expectError(await as(carol).post(`/user/device/handover/${eui}`, { username: bob.account.username }), 403, 'FORBIDDEN');
    expectError(await as(carol).get(`/user/device/share/${eui}`), 403, 'FORBIDDEN');
    expectError(await svc.http().get('/user/device/handover'), 401, 'AUTH_REQUIRED');
    expect((await offers(bob)).received.map((o) => o.devEUI)).not.toContain(eui);
  });
});
