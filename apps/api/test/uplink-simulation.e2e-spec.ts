import { getDataSourceToken } from '@nestjs/typeorm';
import type { InvitationWire, OrganisationWire, UplinkRecordWire } from '@dts/domain';
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Test } from 'supertest';
import { accountWithCredentials, createToken, tokenClient } from './support/accounts';
import { eventually } from '@dts/platform';
import { expectError, expectSuccess } from './support/envelope';
import { startTestService, type TestService } from './support/harness';
import { lpp } from './support/payloads';

/*
 * POST /user/device/uplink/{eui}/simulate (docs/api.md §5, "Simulated uplinks"): a person's test
 * uplink, stored by the same ingestion as POST /ingest/rest and recorded under the simulated network.
 */

type Person = Awaited<ReturnType<typeof accountWithCredentials>>;
const newEui = () => randomBytes(8).toString('hex').toUpperCase();

describe('simulated uplinks', () => {
  let svc: TestService;
  let db: DataSource;
  let alice: Person;
  let bob: Person;
  let eui: string;

  const as = (who: Person, organisation?: string) => {
    const set = (t: Test) => (organisation === undefined ? t.set('Cookie', who.cookie) : t.set('Cookie', who.cookie).set('X-Organisation', organisation));
    return {
      get: (path: string) => set(svc.http().get(path)),
      post: (path: string, body: object = {}) => set(svc.http().post(path)).send(body),
    };
  };
  const simulate = (who: Person, target: string, body: object, organisation?: string) =>
    as(who, organisation).post(`/user/device/uplink/${target}/simulate`, body);
  const table = async (who: Person, target: string, organisation?: string) =>
    expectSuccess<UplinkRecordWire[]>(await as(who, organisation).get(`/user/device/table/${target}`));

  beforeAll(async () => {
    svc = await startTestService({ env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000', RATE_LIMIT_PER_MINUTE: '100000' } });
    db = svc.app.get<DataSource>(getDataSourceToken());
    [alice, bob] = await Promise.all([accountWithCredentials(svc, 'alice'), accountWithCredentials(svc, 'bob')]);
    eui = newEui();
    // The Cayenne LPP decoder (2): the simulated payload is decoded as a real one would be.
    expectSuccess(await tokenClient(svc, alice.appToken).post(`/user/device/${eui}`, { decoder_ref: 2 }), 201);
  }, 60_000);
  afterAll(() => svc?.close());

  it('stores, decodes and records the uplink under the simulated network, as the REST route would', async () => {
    const result = expectSuccess(await simulate(alice, eui, { port: 1, payload_hex: lpp({ t: 21.5, h: 40 }), RSSI: -71, SNR: 7.5 }), 201);
    expect(result).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
    // The same payload in Base64, with the EUI written in lower case and separated.
    const b64 = Buffer.from(lpp({ t: 22 }), 'hex').toString('base64');
    const spaced = eui.toLowerCase().match(/../g)!.join('-');
    expectSuccess(await simulate(alice, spaced, { port: 2, payload_raw: b64 }), 201);
    const rows = await table(alice, eui);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      uplink: { devEUI: eui, port: 1, RSSI: -71, SNR: 7.5, network: 'Simulated', api_ref: null },
      payload_valid: true,
      temperature: 21.5,
      humidity: 40,
    });
    expect(rows[1]).toMatchObject({ uplink: { port: 2, network: 'Simulated' }, temperature: 22, payload_hex: lpp({ t: 22 }).toUpperCase() });
    // Marked as simulated where the row is kept, and the device's metadata moved as for any uplink.
    const stored: { simulated: boolean; network_ref: number }[] = await db.query(
      'SELECT u.simulated, u.network_ref FROM uplinks u JOIN devices d ON d.uid = u.device_id WHERE d.eui = $1',
      [eui],
    );
    expect(stored).toEqual([
      { simulated: true, network_ref: 1 },
      { simulated: true, network_ref: 1 },
    ]);
    const meta = expectSuccess<{ temperature_dc: number | null; signal_dbm: number | null }[]>(await as(alice).get(`/user/device/meta/${eui}`))[0]!;
    expect(meta.temperature_dc).toBe(220);
    expect(meta.signal_dbm).toBe(-71);
  });

  it('is checked by the account’s rules as any uplink: a threshold rule raises its alert', async () => {
    const rule = await alice.client.rules.create({ name: 'Warm', kind: 'threshold', member: 'temperature', above: 30, devices: { euis: [eui] } });
    expectSuccess(await simulate(alice, eui, { port: 1, payload_hex: lpp({ t: 31.5 }) }), 201);
    const alerts = await eventually(
      async () => {
        const list = await alice.client.alerts.list({ eui });
        if (list.length === 0) throw new Error('no alert yet');
        return list;
      },
      { what: 'the alert of the simulated uplink', timeoutMs: 15_000 },
    );
    expect(alerts).toEqual([expect.objectContaining({ rule: expect.objectContaining({ uid: rule.uid }), state: 'active', devEUI: eui })]);
  });

  it('refuses bad input naming the member, and stores nothing', async () => {
    const before = (await table(alice, eui)).length;
    const cases: [object, string][] = [
      [{ payload_hex: '01' }, 'port'],
      [{ port: 256, payload_hex: '01' }, 'port'],
      [{ port: 1, payload_hex: 'zz' }, 'payload_hex'],
      [{ port: 1 }, 'payload_raw'],
      [{ port: 1, payload_hex: '01', payload_raw: 'AQ==' }, 'payload_raw'],
      [{ port: 1, payload_hex: '00'.repeat(243) }, 'payload_hex'],
      [{ port: 1, payload_hex: '01', RSSI: 'loud' }, 'RSSI'],
      [{ port: 1, payload_hex: '01', SNR: 99 }, 'SNR'],
      [{ port: 1, payload_hex: '01', devEUI: eui }, 'devEUI'],
      [{ port: 1, payload_hex: '01', network: 'Generic REST' }, 'network'],
    ];
    for (const [body, field] of cases) {
      const res = await simulate(alice, eui, body);
      expect({ body, status: res.status, field: res.body.errors?.[0]?.field }).toEqual({ body, status: 400, field });
      expectError(res, 400, 'VALIDATION_FAILED', field);
    }
    expectError(await simulate(alice, 'not-an-eui', { port: 1, payload_hex: '01' }), 400, 'VALIDATION_FAILED', 'eui');
    expect(await table(alice, eui)).toHaveLength(before);
  });

  it('needs credentials (401), and another account’s device is 404 with nothing stored', async () => {
    const before = (await table(alice, eui)).length;
    expectError(await svc.http().post(`/user/device/uplink/${eui}/simulate`).send({ port: 1, payload_hex: '01' }), 401, 'AUTH_REQUIRED');
    expectError(await simulate(bob, eui, { port: 1, payload_hex: '01' }), 404, 'NOT_FOUND', 'eui');
    expectError(await simulate(alice, newEui(), { port: 1, payload_hex: '01' }), 404, 'NOT_FOUND', 'eui');
    expect(await table(alice, eui)).toHaveLength(before);
  });

  it('takes a key with the ingest right, and refuses one without it (403 RIGHT_REQUIRED)', async () => {
    const ingestKey = await createToken(svc, alice.cookie, 'API', { rights: ['ingest'] });
    const readKey = await createToken(svc, alice.cookie, 'API', { rights: ['read'] });
    const before = (await table(alice, eui)).length;
    expectSuccess(await tokenClient(svc, ingestKey.value).post(`/user/device/uplink/${eui}/simulate`, { port: 3, payload_hex: '01' }), 201);
    expectError(
      await tokenClient(svc, readKey.value).post(`/user/device/uplink/${eui}/simulate`, { port: 3, payload_hex: '01' }),
      403,
      'RIGHT_REQUIRED',
      'Authorization',
    );
    expect(await table(alice, eui)).toHaveLength(before + 1);
  });

  it('in an organisation: an operator simulates, a viewer is refused (403 ROLE_REQUIRED)', async () => {
    const team = expectSuccess<OrganisationWire>(await as(alice).post('/org', { name: `sim-${randomBytes(3).toString('hex')}` }), 201);
    const [olga, vera] = await Promise.all([accountWithCredentials(svc, 'olga'), accountWithCredentials(svc, 'vera')]);
    // Invitations reach verified addresses only; the mail round trip is organisations.e2e-spec's.
    await db.query('UPDATE accounts SET email_verified_at = now() WHERE id = ANY($1)', [[olga.account.id, vera.account.id]]);
    for (const [who, role] of [
      [olga, 'operator'],
      [vera, 'viewer'],
    ] as const) {
      const invitation = expectSuccess<InvitationWire>(await as(alice).post(`/org/${team.id}/member`, { username: who.account.username, role }), 201);
      expectSuccess(await as(who).post(`/user/invitation/${invitation.uid}/accept`));
    }
    const teamEui = newEui();
    expectSuccess(await as(alice, team.name).post(`/user/device/${teamEui}`, {}), 201);
    expectError(await simulate(vera, teamEui, { port: 1, payload_hex: '01' }, team.name), 403, 'ROLE_REQUIRED');
    expect(await table(alice, teamEui, team.name)).toHaveLength(0);
    expectSuccess(await simulate(olga, teamEui, { port: 1, payload_hex: '01' }, team.name), 201);
    expect((await table(vera, teamEui, team.name)).map((r) => r.uplink.network)).toEqual(['Simulated']);
    // The organisation's device is not the person's own.
    expectError(await simulate(olga, teamEui, { port: 1, payload_hex: '01' }), 404, 'NOT_FOUND', 'eui');
  });
});
