import { CHIRPSTACK_UPLINK_SAMPLE, TTN_UPLINK_SAMPLE } from '@dts/domain';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import type { Response } from 'supertest';
import { accountWithCredentials, bearer, login, tokenClient } from './support/accounts';
import { expectError, expectSuccess } from './support/envelope';
import { eventually, pause } from '@dts/platform';
import { startTestService, TEST_SECRETS, type TestService } from './support/harness';
import { WebhookReceiver } from './support/webhook-receiver';

/*
 * Authorization matrix (OWASP API1 broken object-level, API5 broken function-level authorization).
 * Every route that names an object — an EUI, image hash, command, token, fence, network, codec,
 * share or datamodel id, in its path or its body — is called as every kind of caller: the owner
 * with a session, an app token and a master token, a user the device is shared with, another
 * account, an administrator, the owner's expired token, and nobody. The expected answer of each
 * is one line of MATRIX below; a route that takes an object and has no line fails the test, so a
 * new route cannot slip through. A refused call on a mutating route must change nothing: the
 * owner reads the object before and after. Ingest routes and the signed image link have their own
 * credentials and their own tables (INGEST, LINK).
 *
 * The rules, from docs/api.md §1, §3, §4, §11 and the README's Devices paragraph:
 * - another account (and an administrator on /user routes) gets 404 NOT_FOUND, never 403, never data;
 * - a user the device is shared with reads it, sends and cancels commands, uploads and annotates
 *   images and edits the metadata (not owner_ref/user_ref, and no reference to its own network or
 *   codec); sharing and ending another user's share are the owner's (403 FORBIDDEN); its DELETE of
 *   the device only drops its own association; fences, networks, codecs and tokens are per account;
 * - an app token does what a session does, except create or delete master tokens, change the
 *   password or delete the account (403 FORBIDDEN), and it never sees a master token's value;
 * - /cache/* needs an administrator (403 ADMIN_ONLY); an expired token is 401 TOKEN_EXPIRED and no
 *   credentials 401 AUTH_REQUIRED.
 */

type Caller = Awaited<ReturnType<typeof accountWithCredentials>>;
const ROLES = ['none', 'expired', 'other', 'admin', 'shared', 'session', 'app', 'master'] as const;
type Role = (typeof ROLES)[number];
/** A success status, or an error status and code. */
type Expect = number | readonly [number, string];

interface Target {
  path: string;
  body?: unknown;
  /** Multipart upload of this file instead of a JSON body. */
  file?: Buffer;
  /** The account whose session and tokens the owner roles use (default: the fixture owner). */
  owner?: Caller;
  /** The owner's view of what the call may change, read before and after a refused call. */
  state?: () => Promise<unknown>;
}

interface Entry {
  route: string;
  variant?: string;
  /** The target of one call by this role: fresh objects where a successful call consumes them. */
  target: (role: Role) => Promise<Target>;
  /** Expected answers; owner roles default to `owner`, admin to `other`. */
  expect: { owner: Expect; shared: Expect | 'n/a'; other: Expect | 'n/a'; session?: Expect; app?: Expect; master?: Expect; admin?: Expect | 'n/a' };
  /** Server-Sent Events: only the status and content type are read. */
  sse?: boolean;
  /** A success that is a file of this type, not an envelope (refusals still are). */
  file?: string;
  /** What a successful call must have done (or not). */
  verify?: (role: Role, target: Target, body: unknown) => Promise<void>;
}

const NOT_FOUND = [404, 'NOT_FOUND'] as const;
const SIGN_IN_ROUTES = ['GET /auth/oidc/{provider}/start', 'GET /auth/oidc/{provider}/callback'];
const FORBIDDEN = [403, 'FORBIDDEN'] as const;
const ADMIN_ONLY = [403, 'ADMIN_ONLY'] as const;
const newEui = () => randomBytes(8).toString('hex').toUpperCase();
const sqlTime = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
const ADMIN = { username: 'matrix_admin', password: 'matrix-admin-password-0123' };
const CODEC = 'function decodeUplink(input) { return { data: { n: input.bytes.length }, warnings: [], errors: [] }; }';
const SQUARE = {
  type: 'Polygon',
  coordinates: [
    [
      [4.88, 52.35],
      [4.89, 52.35],
      [4.89, 52.36],
      [4.88, 52.36],
      [4.88, 52.35],
    ],
  ],
};
let pngSeed = 0;
/** A tiny PNG, different at every call (a new image, not the same one again). */
const tinyPng = () => {
  const n = ++pngSeed;
  return sharp({ create: { width: 4, height: 4, channels: 3, background: { r: n % 256, g: (n >> 8) % 256, b: 77 } } })
    .png()
    .toBuffer();
};

describe('authorization matrix (OWASP API1/API5)', () => {
  let svc: TestService;
  let owner: Caller;
  let shared: Caller;
  let other: Caller;
  let carol: Caller;
  let adminCookie: string;
  let expiredToken: string;
  /** A ChirpStack that never answers: dispatches hang until their timeout, so commands stay Created. */
  let blackhole: Server;
  const held = new Set<Socket>();
  /** A webhook receiver that takes everything. */
  const hooks = new WebhookReceiver();
  const fx = {} as {
    eui: string;
    otherEui: string;
    network: number;
    codec: number;
    fence: number;
    dashboard: number;
    command: number;
    hash: string;
    otherHash: string;
    networkType: number;
    dataType: number;
    imageUrl: string;
    otherImageUrl: string;
    integration: number;
    delivery: number;
    rule: number;
    alert: number;
    org: number;
    otherOrg: number;
  };

  const credentials = (role: Role, who: Caller): [string, string] | null => {
    switch (role) {
      case 'none':
        return null;
      case 'expired':
        return bearer(expiredToken);
      case 'other':
        return bearer(other.appToken);
      case 'admin':
        return ['Cookie', adminCookie];
      case 'shared':
        return bearer(shared.appToken);
      case 'session':
        return ['Cookie', who.cookie];
      case 'app':
        return bearer(who.appToken);
      case 'master':
        return bearer(who.masterToken);
    }
  };
  const as = (who: Caller) => tokenClient(svc, who.masterToken);
  const ownerGet = async <T>(path: string) => expectSuccess<T>(await as(owner).get(path));
  /** A latest-value tile of the device: a dashboard's body naming an object. */
  const dashboardTile = (eui: string) => ({ id: 't', kind: 'latest', title: null, x: 0, y: 0, w: 3, h: 2, options: { device: eui, member: 'temperature' } });
  let adminEdits = 0;
  let retentionEdits = 0;
  /** The image's hash once the worker made its thumbnail. */
  const thumbReady = async (hash: string) => {
    await eventually(async () => (await ownerGet<{ meta: { status: number } }>(`/user/device/image/${fx.eui}/${hash}`)).meta.status >= 4, {
      what: `the thumbnail of ${hash}`,
    });
    return hash;
  };

  // Fresh objects for calls that consume theirs.
  const freshDevice = async (shareWith: Caller[] = [shared]) => {
    const eui = newEui();
    expectSuccess(await as(owner).post(`/user/device/${eui}`, { label: 'matrix', network_ref: fx.network }), 201);
    for (const who of shareWith) expectSuccess(await as(owner).post(`/user/device/share/${eui}`, { username: who.account.username }), 201);
    return eui;
  };
  const freshCommand = async () =>
    expectSuccess<{ uid: number }>(await as(owner).post(`/user/device/command/${fx.eui}`, { port: 2, payload_hex: '0102' }), 201).uid;
  const freshImage = async (eui = fx.eui, who = owner) => {
    const res = await svc
      .http()
      .post(`/user/device/image/${eui}`)
      .set(...bearer(who.appToken))
      .attach('file', await tinyPng(), 'tiny.png');
    return expectSuccess<{ hash: string; meta: { url: string } }>(res, 201);
  };
  const freshToken = async (type: 'API' | 'master', who = owner) => {
    const uid = expectSuccess<number>(await svc.http().post('/user/token').set('Cookie', who.cookie).send({ type }), 201);
    return uid;
  };
  const tokenUids = async (who = owner) => expectSuccess<{ uid: number }[]>(await svc.http().get('/user/token').set('Cookie', who.cookie)).map((t) => t.uid);
  const offersOf = (who: Caller) =>
    as(who)
      .get('/user/device/handover')
      .then((r) => r.body.data);
  const relation = (eui: string, accountId: number) => ownerGet<{ result: string }>(`/user/device/result/${eui}/${accountId}`);
  const commandState = async (uid: number) => (await ownerGet<{ uid: number; status: string }[]>(`/user/device/command/${fx.eui}`)).find((c) => c.uid === uid);
  const imageState = (eui: string, hash: string) =>
    as(owner)
      .get(`/user/device/image/${eui}/${hash}`)
      .then((r) => ({ status: r.status, annotations: r.body.data?.meta?.annotations ?? null }));
  const freshAccount = () => accountWithCredentials(svc, 'matrix_fresh');
  const sessionIds = async (who: Caller) => expectSuccess<{ id: string }[]>(await as(who).get('/user/session')).map((s) => s.id);
  /** Signs the account in once more; answers the new session's id. */
  const freshSessionOf = async (who: Caller) => {
    const before = await sessionIds(who);
    await login(svc, who.account);
    const [id, ...more] = (await sessionIds(who)).filter((i) => !before.includes(i));
    expect({ id, more }).toEqual({ id: expect.any(String), more: [] });
    return id!;
  };
  /** The owner's view of the fixture integration and its delivery (the integration is disabled: nothing moves by itself). */
  const integrationState = async () => ({
    integration: await ownerGet<{ name: string }>(`/user/integration/${fx.integration}`),
    deliveries: await ownerGet<{ id: number; state: string; attempts: number }[]>(`/user/integration/${fx.integration}/deliveries`),
  });

  /** Whether the account still works: its master token opens GET /user, and its password logs in. */
  const accountState = (who: Caller) => async () => ({
    me: (
      await svc
        .http()
        .get('/user')
        .set(...bearer(who.masterToken))
    ).status,
    login: (await svc.http().post('/auth/check').send({ username: who.account.username, password: who.account.password })).body.data,
  });

  const MATRIX: Entry[] = [
    // Devices
    {
      route: 'POST /user/device/{eui}',
      target: async () => ({ path: `/user/device/${fx.eui}`, body: { label: 'taken' }, state: () => ownerGet(`/user/device/meta/${fx.eui}`) }),
      expect: {
        owner: [409, 'DEVICE_EXISTS'],
        shared: [409, 'DEVICE_OWNED_ELSEWHERE'],
        other: [409, 'DEVICE_OWNED_ELSEWHERE'],
        admin: [409, 'DEVICE_OWNED_ELSEWHERE'],
      },
    },
    {
      route: 'DELETE /user/device/{eui}',
      target: async () => {
        const eui = await freshDevice();
        return {
          path: `/user/device/${eui}`,
          state: async () => ({ owned: (await as(owner).get(`/user/device/meta/${eui}`)).status, shared: (await relation(eui, shared.account.id)).result }),
        };
      },
      expect: { owner: 200, shared: 200, other: NOT_FOUND },
      // The shared user's delete drops only its own association: the owner keeps the device.
      verify: async (role, target) => {
        if (role === 'shared') expect(await target.state!()).toEqual({ owned: 200, shared: 'none' });
        else expect((await as(owner).get(target.path.replace('/user/device/', '/user/device/meta/'))).status).toBe(404);
      },
    },
    {
      route: 'GET /user/device/result/{eui}/{uid}',
      target: async () => ({ path: `/user/device/result/${fx.eui}/${shared.account.id}` }),
      expect: { owner: 200, shared: 200, other: NOT_FOUND },
    },
    {
      route: 'GET /user/device/meta/{eui}',
      target: async () => ({ path: `/user/device/meta/${fx.eui}` }),
      expect: { owner: 200, shared: 200, other: NOT_FOUND },
    },
    {
      route: 'POST /user/device/meta/{eui}',
      target: async () => ({ path: `/user/device/meta/${fx.eui}`, body: { folder: 'matrix' }, state: () => ownerGet(`/user/device/meta/${fx.eui}`) }),
      expect: { owner: 200, shared: 200, other: NOT_FOUND },
    },
    {
      route: 'POST /user/device/meta/{eui}',
      variant: 'owner_ref (a hand-over)',
      target: async () => ({
        path: `/user/device/meta/${fx.eui}`,
        body: { owner_ref: owner.account.id },
        state: () => ownerGet(`/user/device/meta/${fx.eui}`),
      }),
      expect: { owner: 200, shared: [403, 'FORBIDDEN'], other: NOT_FOUND },
    },
    {
      route: 'POST /user/device/meta/{eui}',
      variant: 'uplink_retention_days (the owner’s)',
      target: async () => ({
        path: `/user/device/meta/${fx.eui}`,
        body: { uplink_retention_days: 30 + (++retentionEdits % 7) },
        state: () => ownerGet(`/user/device/meta/${fx.eui}`),
      }),
      expect: { owner: 200, shared: FORBIDDEN, other: NOT_FOUND },
    },
    {
      route: 'POST /user/device/meta/{eui}',
      variant: 'network_ref of the caller’s own network',
      target: async (role) => {
        // Each account names a network of its own: the shared user may not route the owner's downlinks through it.
        const by = role === 'shared' ? shared : role === 'other' ? other : owner;
        const network =
          role === 'none' || role === 'expired' || role === 'admin'
            ? fx.network
            : expectSuccess<{ uid: number }>(
                await as(by).post('/user/network', { name: 'mine', adapter: 'chirpstack', base_url: 'https://8.8.4.4', api_key: 'k-0123456789' }),
                201,
              ).uid;
        const eui = await freshDevice();
        return { path: `/user/device/meta/${eui}`, body: { network_ref: network }, state: () => ownerGet(`/user/device/meta/${eui}`) };
      },
      expect: { owner: 200, shared: [400, 'VALIDATION_FAILED'], other: NOT_FOUND },
    },
    {
      route: 'POST /user/device/meta/{eui}',
      variant: 'decoder_ref of the caller’s own codec',
      target: async (role) => {
        const by = role === 'shared' ? shared : role === 'other' ? other : owner;
        const codec =
          role === 'none' || role === 'expired' || role === 'admin'
            ? fx.codec
            : expectSuccess<{ uid: number }>(await as(by).post('/user/codec', { name: `mine-${randomBytes(4).toString('hex')}`, script: CODEC }), 201).uid;
        const eui = await freshDevice();
        return { path: `/user/device/meta/${eui}`, body: { decoder_ref: codec }, state: () => ownerGet(`/user/device/meta/${eui}`) };
      },
      expect: { owner: 200, shared: [400, 'VALIDATION_FAILED'], other: NOT_FOUND },
    },
    {
      route: 'POST /user/device/share/{eui}',
      target: async () => {
        const eui = await freshDevice();
        return { path: `/user/device/share/${eui}`, body: { username: carol.account.username }, state: () => relation(eui, carol.account.id) };
      },
      expect: { owner: 201, shared: FORBIDDEN, other: NOT_FOUND },
    },
    {
      route: 'DELETE /user/device/share/{eui}/{uid}',
      variant: 'the shared user’s own share',
      target: async () => {
        const eui = await freshDevice();
        return { path: `/user/device/share/${eui}/${shared.account.id}`, state: () => relation(eui, shared.account.id) };
      },
      expect: { owner: 200, shared: 200, other: NOT_FOUND },
    },
    {
      route: 'DELETE /user/device/share/{eui}/{uid}',
      variant: 'another user’s share',
      target: async () => {
        const eui = await freshDevice([shared, carol]);
        return { path: `/user/device/share/${eui}/${carol.account.id}`, state: () => relation(eui, carol.account.id) };
      },
      expect: { owner: 200, shared: [403, 'FORBIDDEN'], other: NOT_FOUND },
    },
    {
      route: 'GET /user/device/share/{eui}',
      target: async () => ({ path: `/user/device/share/${fx.eui}` }),
      expect: { owner: 200, shared: FORBIDDEN, other: NOT_FOUND },
    },
    // Hand-over by consent: the owner offers; the receiving account accepts or declines.
    {
      route: 'POST /user/device/handover/{eui}',
      // An offer of the fixture device: a new one replaces it, nothing moves.
      target: async () => ({ path: `/user/device/handover/${fx.eui}`, body: { username: carol.account.username }, state: () => offersOf(carol) }),
      expect: { owner: 201, shared: FORBIDDEN, other: NOT_FOUND },
    },
    {
      route: 'DELETE /user/device/handover/{eui}',
      target: async () => {
        expectSuccess(await as(owner).post(`/user/device/handover/${fx.eui}`, { username: carol.account.username }), 201);
        return { path: `/user/device/handover/${fx.eui}`, state: () => offersOf(carol) };
      },
      expect: { owner: 200, shared: FORBIDDEN, other: NOT_FOUND },
    },
    ...(['accept', 'decline'] as const).map((step): Entry => ({
      route: `POST /user/device/handover/{eui}/${step}`,
      // Offered by carol to the owner: the owner roles are the receiver.
      target: async () => {
        const eui = newEui();
        expectSuccess(await as(carol).post(`/user/device/${eui}`, { label: 'offered' }), 201);
        expectSuccess(await as(carol).post(`/user/device/handover/${eui}`, { username: owner.account.username }), 201);
        return { path: `/user/device/handover/${eui}/${step}`, state: () => offersOf(carol) };
      },
      expect: { owner: 200, shared: NOT_FOUND, other: NOT_FOUND },
    })),
    // History
    ...['table', 'data'].map((view): Entry => ({
      route: `GET /user/device/${view}/{eui}`,
      target: async () => ({ path: `/user/device/${view}/${fx.eui}` }),
      expect: { owner: 200, shared: 200, other: NOT_FOUND },
    })),
    {
      route: 'GET /user/device/live/{eui}',
      sse: true,
      target: async () => ({ path: `/user/device/live/${fx.eui}` }),
      expect: { owner: 200, shared: 200, other: NOT_FOUND },
    },
    { route: 'GET /test/uplink/{eui}', target: async () => ({ path: `/test/uplink/${fx.eui}` }), expect: { owner: 200, shared: 200, other: NOT_FOUND } },
    {
      route: 'GET /user/device/series/{eui}',
      target: async () => ({ path: `/user/device/series/${fx.eui}?members=temperature&from=1777636800&to=1777640400&interval=5m` }),
      expect: { owner: 200, shared: 200, other: NOT_FOUND },
    },
    {
      // The account's own devices only, as an API token at POST /ingest/rest: a shared one is not the sharer's to feed.
      route: 'POST /user/device/uplink/{eui}/simulate',
      target: async () => ({
        path: `/user/device/uplink/${fx.eui}/simulate`,
        body: { port: 1, payload_hex: '0167010E' },
        state: async () => (await ownerGet<unknown[]>(`/user/device/table/${fx.eui}`)).length,
      }),
      expect: { owner: 201, shared: FORBIDDEN, other: NOT_FOUND },
    },
    // Commands
    {
      route: 'GET /user/device/command/{eui}',
      target: async () => ({ path: `/user/device/command/${fx.eui}` }),
      expect: { owner: 200, shared: 200, other: NOT_FOUND },
    },
    {
      route: 'GET /user/device/command/{eui}/available',
      target: async () => ({ path: `/user/device/command/${fx.eui}/available` }),
      expect: { owner: 200, shared: 200, other: NOT_FOUND },
    },
    {
      route: 'POST /user/device/command/{eui}',
      target: async () => ({
        path: `/user/device/command/${fx.eui}`,
        body: { port: 3, payload_hex: '03' },
        state: async () => (await ownerGet<unknown[]>(`/user/device/command/${fx.eui}`)).length,
      }),
      expect: { owner: 201, shared: 201, other: NOT_FOUND },
    },
    {
      route: 'DELETE /user/device/command/{eui}/{uid}',
      target: async () => {
        const uid = await freshCommand();
        return { path: `/user/device/command/${fx.eui}/${uid}`, state: () => commandState(uid) };
      },
      expect: { owner: 200, shared: 200, other: NOT_FOUND },
    },
    {
      route: 'DELETE /user/device/command/{eui}',
      target: async () => {
        const uid = await freshCommand();
        return { path: `/user/device/command/${fx.eui}`, state: () => commandState(uid) };
      },
      expect: { owner: 200, shared: 200, other: NOT_FOUND },
    },
    {
      route: 'DELETE /user/device/command/{eui}/{uid}',
      variant: 'the caller’s own EUI with the owner’s command uid',
      target: async (role) => {
        const uid = await freshCommand();
        return { path: `/user/device/command/${role === 'other' ? fx.otherEui : fx.eui}/${uid}`, state: () => commandState(uid) };
      },
      expect: { owner: 200, shared: 200, other: NOT_FOUND },
    },
    // Images
    {
      route: 'GET /user/device/image/{eui}',
      target: async () => ({ path: `/user/device/image/${fx.eui}` }),
      expect: { owner: 200, shared: 200, other: NOT_FOUND },
    },
    {
      route: 'POST /user/device/image/{eui}',
      target: async () => ({
        path: `/user/device/image/${fx.eui}`,
        file: await tinyPng(),
        state: async () => (await ownerGet<unknown[]>(`/user/device/image/${fx.eui}`)).length,
      }),
      expect: { owner: 201, shared: 201, other: NOT_FOUND },
    },
    {
      route: 'GET /user/device/image/{eui}/{image_hash}',
      target: async () => ({ path: `/user/device/image/${fx.eui}/${fx.hash}` }),
      expect: { owner: 200, shared: 200, other: NOT_FOUND },
    },
    {
      route: 'GET /user/device/image/{eui}/{image_hash}',
      variant: 'the caller’s own EUI with the owner’s image hash',
      target: async (role) => ({ path: `/user/device/image/${role === 'other' ? fx.otherEui : fx.eui}/${fx.hash}` }),
      expect: { owner: 200, shared: 200, other: NOT_FOUND },
    },
    {
      route: 'DELETE /user/device/image/{eui}/{image_hash}',
      target: async (role) => {
        const { hash } = await freshImage();
        return { path: `/user/device/image/${role === 'other' ? fx.otherEui : fx.eui}/${hash}`, state: () => imageState(fx.eui, hash) };
      },
      expect: { owner: 200, shared: 200, other: NOT_FOUND },
    },
    {
      route: 'POST /user/device/image/{eui}/{image_hash}/annotations',
      target: async () => ({
        path: `/user/device/image/${fx.eui}/${fx.hash}/annotations`,
        body: [{ bbox: [0.1, 0.1, 0.2, 0.2], score: 0.5, label: 'animal' }],
        state: () => imageState(fx.eui, fx.hash),
      }),
      expect: { owner: 200, shared: 200, other: NOT_FOUND },
    },
    {
      route: 'GET /user/device/image/{eui}/{image_hash}/thumb',
      target: async (role) => ({ path: `/user/device/image/${role === 'other' ? fx.otherEui : fx.eui}/${await thumbReady(fx.hash)}/thumb` }),
      expect: { owner: 200, shared: 200, other: NOT_FOUND },
      file: 'image/jpeg',
    },
    {
      route: 'GET /user/image',
      variant: 'one camera (eui in the query)',
      target: async () => ({ path: `/user/image?eui=${fx.eui}` }),
      expect: { owner: 200, shared: 200, other: NOT_FOUND },
      verify: async (_role, _target, data) => expect((data as { hash: string }[]).map((i) => i.hash)).toContain(fx.hash),
    },
    // Fences, networks, codecs, gateways: per account, never shared.
    { route: 'GET /user/fence/{uid}', target: async () => ({ path: `/user/fence/${fx.fence}` }), expect: { owner: 200, shared: NOT_FOUND, other: NOT_FOUND } },
    {
      route: 'GET /user/fence/{uid}/devices',
      target: async () => ({ path: `/user/fence/${fx.fence}/devices` }),
      expect: { owner: 200, shared: NOT_FOUND, other: NOT_FOUND },
    },
    {
      route: 'PATCH /user/fence/{uid}',
      target: async () => ({
        path: `/user/fence/${fx.fence}`,
        body: { name: `matrix fence ${randomBytes(3).toString('hex')}` },
        state: async () => (await ownerGet<{ name: string }>(`/user/fence/${fx.fence}`)).name,
      }),
      expect: { owner: 200, shared: NOT_FOUND, other: NOT_FOUND },
    },
    {
      route: 'DELETE /user/fence/{uid}',
      target: async () => {
        const { uid } = expectSuccess<{ uid: number }>(await as(owner).post('/user/fence', { name: 'gone', geometry: SQUARE }), 201);
        return { path: `/user/fence/${uid}`, state: async () => (await as(owner).get(`/user/fence/${uid}`)).status };
      },
      expect: { owner: 200, shared: NOT_FOUND, other: NOT_FOUND },
    },
    {
      route: 'DELETE /user/network/{uid}',
      target: async () => {
        const { uid } = expectSuccess<{ uid: number }>(
          await as(owner).post('/user/network', { name: 'gone', adapter: 'chirpstack', base_url: 'https://8.8.4.4', api_key: 'k-0123456789' }),
          201,
        );
        return { path: `/user/network/${uid}`, state: async () => (await ownerGet<{ uid: number }[]>('/user/network')).some((n) => n.uid === uid) };
      },
      expect: { owner: 200, shared: NOT_FOUND, other: NOT_FOUND },
    },
    {
      route: 'GET /datamodel/network/{uid}',
      target: async () => ({ path: `/datamodel/network/${fx.network}` }),
      expect: { owner: 200, shared: NOT_FOUND, other: NOT_FOUND },
    },
    {
      route: 'GET /user/gateways/{network_ref}',
      target: async () => ({ path: `/user/gateways/${fx.network}` }),
      expect: { owner: 200, shared: NOT_FOUND, other: NOT_FOUND },
    },
    {
      route: 'DELETE /user/codec/{uid}',
      target: async () => {
        const { uid } = expectSuccess<{ uid: number }>(
          await as(owner).post('/user/codec', { name: `gone-${randomBytes(4).toString('hex')}`, script: CODEC }),
          201,
        );
        return { path: `/user/codec/${uid}`, state: async () => (await ownerGet<{ uid: number }[]>('/user/codec')).some((c) => c.uid === uid) };
      },
      expect: { owner: 200, shared: NOT_FOUND, other: NOT_FOUND },
    },
    { route: 'GET /user/codec/{uid}', target: async () => ({ path: `/user/codec/${fx.codec}` }), expect: { owner: 200, shared: NOT_FOUND, other: NOT_FOUND } },
    {
      route: 'PATCH /user/codec/{uid}',
      target: async () => ({
        path: `/user/codec/${fx.codec}`,
        body: { description: `changed ${randomBytes(2).toString('hex')}` },
        state: async () => (await ownerGet<{ uid: number; description: string }[]>('/user/codec')).find((c) => c.uid === fx.codec)?.description,
      }),
      expect: { owner: 200, shared: NOT_FOUND, other: NOT_FOUND },
    },
    {
      route: 'POST /user/codec/try',
      variant: 'examples_of the owner’s codec',
      target: async () => ({ path: '/user/codec/try', body: { script: CODEC, examples_of: fx.codec } }),
      expect: { owner: 200, shared: NOT_FOUND, other: NOT_FOUND },
    },
    {
      route: 'POST /user/device/import',
      variant: 'a row whose decoder is the owner’s codec',
      target: async (role) => ({
        path: '/user/device/import',
        body: [{ eui: newEui(), label: `imported by ${role}`, decoder: fx.codec }],
        state: async () => (await ownerGet<string[]>('/user/device')).length,
      }),
      // A shared user imports onto its own account, where the owner's codec does not exist (400 naming the row's decoder).
      expect: { owner: 201, shared: [400, 'VALIDATION_FAILED'], other: [400, 'VALIDATION_FAILED'] },
    },
    {
      route: 'GET /datamodel/decoder/{decoder_id}',
      target: async () => ({ path: `/datamodel/decoder/${fx.codec}` }),
      expect: { owner: 200, shared: NOT_FOUND, other: NOT_FOUND },
    },
    // Integrations, alert rules and alerts: per account, never shared (a shared device's events reach
    // the integrations of both accounts, each its own).
    {
      route: 'POST /user/integration',
      variant: 'a device filter naming the owner’s device',
      target: async () => ({
        path: '/user/integration',
        body: { name: 'matrix', kind: 'webhook', url: `${hooks.url}/new`, events: ['alert'], devices: { euis: [fx.eui] } },
      }),
      expect: { owner: 201, shared: 201, other: [404, 'NOT_FOUND'] },
    },
    {
      route: 'GET /user/integration/{uid}',
      target: async () => ({ path: `/user/integration/${fx.integration}` }),
      expect: { owner: 200, shared: NOT_FOUND, other: NOT_FOUND },
    },
    {
      route: 'PATCH /user/integration/{uid}',
      target: async () => ({
        path: `/user/integration/${fx.integration}`,
        body: { name: `renamed ${randomBytes(2).toString('hex')}` },
        state: () => integrationState(),
      }),
      expect: { owner: 200, shared: NOT_FOUND, other: NOT_FOUND },
    },
    {
      route: 'DELETE /user/integration/{uid}',
      target: async () => {
        const { uid } = expectSuccess<{ uid: number }>(
          await as(owner).post('/user/integration', { name: 'gone', kind: 'webhook', url: `${hooks.url}/gone`, events: ['alert'] }),
          201,
        );
        return { path: `/user/integration/${uid}`, state: async () => (await as(owner).get(`/user/integration/${uid}`)).status };
      },
      expect: { owner: 200, shared: NOT_FOUND, other: NOT_FOUND },
    },
    {
      route: 'GET /user/integration/{uid}/deliveries',
      target: async () => ({ path: `/user/integration/${fx.integration}/deliveries` }),
      expect: { owner: 200, shared: NOT_FOUND, other: NOT_FOUND },
    },
    {
      route: 'POST /user/integration/{uid}/deliveries/{id}/redeliver',
      target: async () => ({ path: `/user/integration/${fx.integration}/deliveries/${fx.delivery}/redeliver`, state: () => integrationState() }),
      expect: { owner: 200, shared: NOT_FOUND, other: NOT_FOUND },
    },
    {
      route: 'POST /user/integration/{uid}/test',
      target: async () => ({ path: `/user/integration/${fx.integration}/test`, state: () => integrationState() }),
      expect: { owner: 200, shared: NOT_FOUND, other: NOT_FOUND },
    },
    // Dashboards: per account (a user the device is shared with has their own); a widget naming a device is checked like a body naming one.
    {
      route: 'POST /user/dashboard',
      variant: 'a widget naming the owner’s device',
      target: async () => ({ path: '/user/dashboard', body: { name: 'matrix', widgets: [dashboardTile(fx.eui)] } }),
      expect: { owner: 201, shared: 201, other: NOT_FOUND },
    },
    {
      route: 'GET /user/dashboard/{uid}',
      target: async () => ({ path: `/user/dashboard/${fx.dashboard}` }),
      expect: { owner: 200, shared: NOT_FOUND, other: NOT_FOUND },
    },
    {
      route: 'PATCH /user/dashboard/{uid}',
      target: async () => ({
        path: `/user/dashboard/${fx.dashboard}`,
        body: { name: `renamed ${randomBytes(2).toString('hex')}` },
        state: () => ownerGet(`/user/dashboard/${fx.dashboard}`),
      }),
      expect: { owner: 200, shared: NOT_FOUND, other: NOT_FOUND },
    },
    {
      route: 'DELETE /user/dashboard/{uid}',
      target: async () => {
        const { uid } = expectSuccess<{ uid: number }>(await as(owner).post('/user/dashboard', { name: 'gone' }), 201);
        return { path: `/user/dashboard/${uid}`, state: async () => (await as(owner).get(`/user/dashboard/${uid}`)).status };
      },
      expect: { owner: 200, shared: NOT_FOUND, other: NOT_FOUND },
    },
    {
      route: 'POST /user/rule',
      variant: 'naming the owner’s fence',
      target: async () => ({ path: '/user/rule', body: { name: 'matrix', kind: 'fence', fence: fx.fence, on: 'leave' } }),
      expect: { owner: 201, shared: NOT_FOUND, other: NOT_FOUND },
    },
    { route: 'GET /user/rule/{uid}', target: async () => ({ path: `/user/rule/${fx.rule}` }), expect: { owner: 200, shared: NOT_FOUND, other: NOT_FOUND } },
    {
      route: 'PATCH /user/rule/{uid}',
      target: async () => ({
        path: `/user/rule/${fx.rule}`,
        body: { name: `renamed ${randomBytes(2).toString('hex')}` },
        state: () => ownerGet(`/user/rule/${fx.rule}`),
      }),
      expect: { owner: 200, shared: NOT_FOUND, other: NOT_FOUND },
    },
    {
      route: 'DELETE /user/rule/{uid}',
      target: async () => {
        const { uid } = expectSuccess<{ uid: number }>(await as(owner).post('/user/rule', { name: 'gone', kind: 'offline', minutes: 600 }), 201);
        return { path: `/user/rule/${uid}`, state: async () => (await as(owner).get(`/user/rule/${uid}`)).status };
      },
      expect: { owner: 200, shared: NOT_FOUND, other: NOT_FOUND },
    },
    { route: 'GET /user/alert/{uid}', target: async () => ({ path: `/user/alert/${fx.alert}` }), expect: { owner: 200, shared: NOT_FOUND, other: NOT_FOUND } },
    {
      route: 'POST /user/alert/{uid}/ack',
      target: async () => ({ path: `/user/alert/${fx.alert}/ack`, state: () => ownerGet(`/user/alert/${fx.alert}`) }),
      expect: { owner: 200, shared: NOT_FOUND, other: NOT_FOUND },
    },
    // The platform's own datamodel: the same for every account.
    {
      route: 'GET /datamodel/network/by_type/{uid}',
      target: async () => ({ path: `/datamodel/network/by_type/${fx.networkType}` }),
      expect: { owner: 200, shared: 200, other: 200 },
    },
    {
      route: 'GET /datamodel/data/type/{type_id}',
      target: async () => ({ path: `/datamodel/data/type/${fx.dataType}` }),
      expect: { owner: 200, shared: 200, other: 200 },
    },
    // Administrators only.
    {
      route: 'GET /cache/status/{eui}',
      target: async () => ({ path: `/cache/status/${fx.eui}` }),
      expect: { owner: ADMIN_ONLY, shared: ADMIN_ONLY, other: ADMIN_ONLY, admin: 200 },
    },
    {
      route: 'POST /cache/invalidate/{eui}',
      target: async () => ({
        path: `/cache/invalidate/${fx.eui}`,
        state: async () => (await as(owner).get(`/user/device/data/${fx.eui}`)).body.meta.cache_file_version,
      }),
      expect: { owner: ADMIN_ONLY, shared: ADMIN_ONLY, other: ADMIN_ONLY, admin: 202 },
    },
    {
      route: 'PATCH /admin/accounts/{id}',
      target: async () => ({
        path: `/admin/accounts/${owner.account.id}`,
        body: { max_devices: 500 + (++adminEdits % 7) },
        state: async () => (await ownerGet<{ max_devices: number }>('/user')).max_devices,
      }),
      expect: { owner: ADMIN_ONLY, shared: ADMIN_ONLY, other: ADMIN_ONLY, admin: 200 },
    },
    {
      route: 'PATCH /admin/accounts/{id}',
      variant: 'active',
      // A fresh account each time: a successful call disables it (and the next one by the owner
      // roles would then be refused for the caller, not for the route).
      target: async () => {
        const who = await freshAccount();
        return {
          path: `/admin/accounts/${who.account.id}`,
          body: { active: 0 },
          state: async () => (await svc.http().post('/auth/check').send({ username: who.account.username, password: who.account.password })).body.data,
        };
      },
      expect: { owner: ADMIN_ONLY, shared: ADMIN_ONLY, other: ADMIN_ONLY, admin: 200 },
    },
    {
      route: 'GET /admin/audit',
      target: async () => ({ path: '/admin/audit?limit=5' }),
      expect: { owner: ADMIN_ONLY, shared: ADMIN_ONLY, other: ADMIN_ONLY, admin: 200 },
    },
    {
      route: 'GET /admin/accounts/{id}/members',
      target: async () => ({ path: `/admin/accounts/${fx.org}/members` }),
      expect: { owner: ADMIN_ONLY, shared: ADMIN_ONLY, other: ADMIN_ONLY, admin: 200 },
    },
    {
      route: 'POST /admin/accounts/{id}/password-reset',
      target: async () => ({ path: `/admin/accounts/${owner.account.id}/password-reset` }),
      expect: { owner: ADMIN_ONLY, shared: ADMIN_ONLY, other: ADMIN_ONLY, admin: 202 },
    },
    {
      route: 'DELETE /admin/accounts/{id}',
      target: async () => {
        const who = await freshAccount();
        return {
          path: `/admin/accounts/${who.account.id}?devices=delete`,
          state: async () => (await svc.http().post('/auth/check').send({ username: who.account.username, password: who.account.password })).body.data,
        };
      },
      expect: { owner: ADMIN_ONLY, shared: ADMIN_ONLY, other: ADMIN_ONLY, admin: 200 },
    },
    {
      route: 'PATCH /admin/accounts/{id}',
      variant: 'uplink_retention_days',
      target: async () => ({
        path: `/admin/accounts/${owner.account.id}`,
        // Never shorter than the device's own value above: the owner's edits of it stay allowed.
        body: { uplink_retention_days: 3_650 + (++adminEdits % 7) },
        state: async () => (await ownerGet<{ uplink_retention_effective_days: number | null }>('/user')).uplink_retention_effective_days,
      }),
      expect: { owner: ADMIN_ONLY, shared: ADMIN_ONLY, other: ADMIN_ONLY, admin: 200 },
    },
    // Tokens and the account: what an app token may not do (API5).
    {
      route: 'DELETE /user/token',
      variant: 'an app token’s uid',
      target: async () => {
        const uid = await freshToken('API');
        return { path: '/user/token', body: { uid }, state: async () => (await tokenUids()).includes(uid) };
      },
      expect: { owner: 200, shared: NOT_FOUND, other: NOT_FOUND },
    },
    {
      route: 'DELETE /user/token',
      variant: 'a master token’s uid',
      target: async () => {
        const uid = await freshToken('master');
        return { path: '/user/token', body: { uid }, state: async () => (await tokenUids()).includes(uid) };
      },
      expect: { owner: 200, app: FORBIDDEN, shared: NOT_FOUND, other: NOT_FOUND },
    },
    {
      route: 'POST /user/token',
      variant: 'type master',
      target: async () => ({ path: '/user/token', body: { type: 'master' }, state: async () => (await tokenUids()).length }),
      expect: { owner: 201, app: FORBIDDEN, shared: 'n/a', other: 'n/a', admin: 'n/a' },
    },
    {
      route: 'GET /user/token',
      target: async () => ({ path: '/user/token' }),
      expect: { owner: 200, shared: 'n/a', other: 'n/a', admin: 'n/a' },
      // A master token's value would give an app token what it may not do itself.
      verify: async (role, _target, data) => {
        const types = new Set((data as { type: string }[]).map((t) => t.type));
        expect({ role, types: [...types].sort() }).toEqual({ role, types: role === 'app' ? ['app'] : ['app', 'master'] });
      },
    },
    // Sessions: a session or a master token lists and ends them; an app token may not (docs/api.md §3).
    {
      route: 'GET /user/session',
      target: async () => ({ path: '/user/session' }),
      expect: { owner: 200, app: FORBIDDEN, shared: 'n/a', other: 'n/a', admin: 'n/a' },
      verify: async (role, _target, data) => {
        const listed = data as { current: boolean }[];
        expect({ role, current: listed.filter((s) => s.current).length }).toEqual({ role, current: role === 'session' ? 1 : 0 });
      },
    },
    {
      route: 'DELETE /user/session/{id}',
      // Another account's app token is refused for being an app token, whatever the id: no oracle either way.
      target: async () => {
        const id = await freshSessionOf(owner);
        return { path: `/user/session/${id}`, state: async () => (await sessionIds(owner)).includes(id) };
      },
      expect: { owner: 200, app: FORBIDDEN, shared: FORBIDDEN, other: FORBIDDEN, admin: NOT_FOUND },
      verify: async (role, target) => {
        expect({ role, left: (await sessionIds(owner)).includes(target.path.split('/').pop()!) }).toEqual({ role, left: false });
      },
    },
    {
      route: 'DELETE /user/session',
      target: async (role) => {
        // Ends every other session of the account: a fresh account, so that the owner's session stays.
        const who = role === 'session' || role === 'master' || role === 'app' ? await freshAccount() : owner;
        await freshSessionOf(who);
        return { path: '/user/session', owner: who, state: async () => (await sessionIds(who)).sort() };
      },
      expect: { owner: 200, app: FORBIDDEN, shared: 'n/a', other: 'n/a', admin: 'n/a' },
      verify: async (role, target) => {
        expect({ role, left: (await sessionIds(target.owner!)).length }).toEqual({ role, left: role === 'session' ? 1 : 0 });
      },
    },
    {
      route: 'POST /auth/pwdchange',
      target: async (role) => {
        const who = role === 'session' || role === 'master' || role === 'app' ? await freshAccount() : owner;
        return {
          path: '/auth/pwdchange',
          owner: who,
          body: { current_password: who.account.password, new_password: `new-${who.account.password}` },
          state: accountState(who),
        };
      },
      expect: { owner: 200, app: FORBIDDEN, shared: 'n/a', other: 'n/a', admin: 'n/a' },
    },
    // The account's address: a change takes a session or a master token and the password (docs/api.md §3).
    {
      route: 'PATCH /user',
      target: async (role) => {
        const who = role === 'session' || role === 'master' || role === 'app' ? await freshAccount() : owner;
        return {
          path: '/user',
          owner: who,
          body: { email: `matrix_${randomBytes(4).toString('hex')}@example.org`, current_password: who.account.password },
          state: async () => expectSuccess<{ email: string; email_pending: string | null }>(await as(who).get('/user')),
        };
      },
      expect: { owner: 200, app: FORBIDDEN, shared: 'n/a', other: 'n/a', admin: 'n/a' },
      verify: async (role, target, data) => {
        expect({ role, pending: (data as { email_pending: string }).email_pending }).toEqual({ role, pending: (target.body as { email: string }).email });
      },
    },
    {
      route: 'POST /user/email/verify',
      target: async () => ({ path: '/user/email/verify' }),
      expect: { owner: 200, shared: 'n/a', other: 'n/a', admin: 'n/a' },
      verify: async (role, _target, data) => {
        expect({ role, data }).toEqual({ role, data: { sent: true, to: owner.account.email } });
      },
    },
    {
      route: 'DELETE /auth/register',
      target: async (role) => {
        const who = role === 'session' || role === 'master' || role === 'app' ? await freshAccount() : owner;
        return { path: '/auth/register', owner: who, body: { password: who.account.password }, state: accountState(who) };
      },
      expect: { owner: 200, app: FORBIDDEN, shared: 'n/a', other: 'n/a', admin: 'n/a' },
    },
    // Organisations (docs/api.md §20): the owner's organisation fx.org, carol a viewer of it; the
    // routes are personal, so the owner's own tokens act as the owner. Managing members,
    // invitations and the organisation's end is a session's or a master token's: the app tokens of
    // `shared` and `other` are refused before anything is looked up (403, naming nothing). Roles within an organisation
    // have their own table in organisations.e2e-spec.ts (every route × every role).
    { route: 'GET /org/{uid}', target: async () => ({ path: `/org/${fx.org}` }), expect: { owner: 200, shared: NOT_FOUND, other: NOT_FOUND } },
    {
      route: 'PATCH /org/{uid}',
      target: async () => ({
        path: `/org/${fx.org}`,
        body: { fullname: `matrix ${randomBytes(3).toString('hex')}` },
        state: async () => (await ownerGet<{ fullname: string }>(`/org/${fx.org}`)).fullname,
      }),
      expect: { owner: 200, shared: NOT_FOUND, other: NOT_FOUND },
    },
    {
      route: 'DELETE /org/{uid}',
      target: async () => {
        const { id } = expectSuccess<{ id: number }>(await as(owner).post('/org', { name: `gone-${randomBytes(4).toString('hex')}` }), 201);
        return { path: `/org/${id}?devices=delete`, state: async () => (await as(owner).get(`/org/${id}`)).status };
      },
      expect: { owner: 200, app: FORBIDDEN, shared: FORBIDDEN, other: FORBIDDEN, admin: NOT_FOUND },
    },
    { route: 'GET /org/{uid}/member', target: async () => ({ path: `/org/${fx.org}/member` }), expect: { owner: 200, shared: NOT_FOUND, other: NOT_FOUND } },
    {
      route: 'POST /org/{uid}/member',
      target: async () => ({
        path: `/org/${fx.org}/member`,
        body: { username: carol.account.username, role: 'viewer' },
        state: () => ownerGet(`/org/${fx.org}/invitation`),
      }),
      expect: { owner: 201, app: FORBIDDEN, shared: FORBIDDEN, other: FORBIDDEN, admin: NOT_FOUND },
    },
    {
      route: 'PATCH /org/{uid}/member/{account}',
      target: async () => ({
        path: `/org/${fx.org}/member/${carol.account.id}`,
        body: { role: 'viewer' },
        state: () => ownerGet(`/org/${fx.org}/member`),
      }),
      expect: { owner: 200, app: FORBIDDEN, shared: FORBIDDEN, other: FORBIDDEN, admin: NOT_FOUND },
    },
    {
      route: 'DELETE /org/{uid}/member/{account}',
      target: async () => {
        const { id } = expectSuccess<{ id: number }>(await as(owner).post('/org', { name: `team-${randomBytes(4).toString('hex')}` }), 201);
        const { uid } = expectSuccess<{ uid: number }>(await as(owner).post(`/org/${id}/member`, { username: carol.account.username, role: 'viewer' }), 201);
        expectSuccess(await as(carol).post(`/user/invitation/${uid}/accept`));
        return { path: `/org/${id}/member/${carol.account.id}`, state: () => ownerGet(`/org/${id}/member`) };
      },
      expect: { owner: 200, app: FORBIDDEN, shared: FORBIDDEN, other: FORBIDDEN, admin: NOT_FOUND },
    },
    {
      route: 'POST /org/{uid}/invitation',
      target: async () => ({
        path: `/org/${fx.org}/invitation`,
        body: { email: `invited-${randomBytes(3).toString('hex')}@example.org`, role: 'viewer' },
        state: () => ownerGet(`/org/${fx.org}/invitation`),
      }),
      expect: { owner: 201, app: FORBIDDEN, shared: FORBIDDEN, other: FORBIDDEN, admin: NOT_FOUND },
    },
    {
      route: 'GET /org/{uid}/invitation',
      target: async () => ({ path: `/org/${fx.org}/invitation` }),
      expect: { owner: 200, shared: NOT_FOUND, other: NOT_FOUND },
    },
    {
      route: 'DELETE /org/{uid}/invitation/{invitation}',
      target: async () => {
        const body = { email: `withdrawn-${randomBytes(3).toString('hex')}@example.org`, role: 'viewer' };
        const { uid } = expectSuccess<{ uid: number }>(await as(owner).post(`/org/${fx.org}/invitation`, body), 201);
        return { path: `/org/${fx.org}/invitation/${uid}`, state: () => ownerGet(`/org/${fx.org}/invitation`) };
      },
      expect: { owner: 200, app: FORBIDDEN, shared: FORBIDDEN, other: FORBIDDEN, admin: NOT_FOUND },
    },
    { route: 'GET /org/{uid}/audit', target: async () => ({ path: `/org/${fx.org}/audit` }), expect: { owner: 200, shared: NOT_FOUND, other: NOT_FOUND } },
    // An invitation is its invitee's: offered by `other`'s organisation to carol's address, carol the owner roles.
    ...(['accept', 'decline'] as const).map((step): Entry => ({
      route: `POST /user/invitation/{uid}/${step}`,
      target: async () => {
        const body = { email: carol.account.email, role: 'viewer' };
        const { uid } = expectSuccess<{ uid: number }>(await as(other).post(`/org/${fx.otherOrg}/invitation`, body), 201);
        return { path: `/user/invitation/${uid}/${step}`, owner: carol, state: async () => expectSuccess(await as(carol).get('/user/invitation')) };
      },
      expect: { owner: 200, shared: NOT_FOUND, other: NOT_FOUND },
    })),
  ];

  /** Routes that name an object in the body rather than the path, or that only a master credential may call. */
  const BODY_OBJECT_ROUTES = [
    'DELETE /user/token',
    'POST /user/token',
    'GET /user/token',
    'POST /auth/pwdchange',
    'DELETE /auth/register',
    'PATCH /user',
    'POST /user/email/verify',
    'POST /user/codec/try',
    'POST /user/device/import',
    'GET /user/session',
    'DELETE /user/session',
  ];

  beforeAll(async () => {
    blackhole = createServer(() => undefined);
    blackhole.on('connection', (s) => {
      held.add(s);
      s.on('close', () => held.delete(s));
    });
    await new Promise<void>((r) => blackhole.listen(0, '127.0.0.1', () => r()));
    await hooks.start();
    svc = await startTestService({
      env: {
        AUTH_RATE_LIMIT_PER_MINUTE: '1000',
        RATE_LIMIT_PER_MINUTE: '100000',
        // Fresh devices per line, and the devices the owner accepts in the hand-over lines.
        ACCOUNT_MAX_DEVICES: '500',
        // The blackhole ChirpStack is on loopback; the SSRF guard is ssrf.e2e-spec's subject.
        OUTBOUND_ALLOW_PRIVATE: 'true',
        ADMIN_USERNAME: ADMIN.username,
        ADMIN_PASSWORD: ADMIN.password,
        OFFLINE_CHECK_SECONDS: '1',
      },
    });
    [owner, shared, other, carol] = await Promise.all([
      accountWithCredentials(svc, 'matrix_owner'),
      accountWithCredentials(svc, 'matrix_shared'),
      accountWithCredentials(svc, 'matrix_other'),
      accountWithCredentials(svc, 'matrix_carol'),
    ]);
    adminCookie = await login(svc, { id: 0, email: '', ...ADMIN });

    // An app token of the owner's that expires in a few seconds (the API takes only future times).
    const until = Date.now() + 6_000;
    const expiredUid = expectSuccess<number>(
      await svc
        .http()
        .post('/user/token')
        .set('Cookie', owner.cookie)
        .send({ type: 'API', until: sqlTime(until) }),
      201,
    );
    expiredToken = expectSuccess<{ uid: number; hash: string }[]>(await svc.http().get('/user/token').set('Cookie', owner.cookie)).find(
      (t) => t.uid === expiredUid,
    )!.hash;

    fx.network = expectSuccess<{ uid: number }>(
      await as(owner).post('/user/network', {
        name: 'blackhole',
        adapter: 'chirpstack',
        base_url: `http://127.0.0.1:${(blackhole.address() as AddressInfo).port}`,
        api_key: 'k-0123456789',
      }),
      201,
    ).uid;
    fx.codec = expectSuccess<{ uid: number }>(await as(owner).post('/user/codec', { name: 'matrix codec', script: CODEC }), 201).uid;
    // Invitations reach verified addresses only; the verification itself is email-verification.e2e's.
    await svc.app.get(DataSource).query('UPDATE accounts SET email_verified_at = now() WHERE id = $1', [carol.account.id]);
    fx.org = expectSuccess<{ id: number }>(await as(owner).post('/org', { name: `matrix-${randomBytes(3).toString('hex')}` }), 201).id;
    fx.otherOrg = expectSuccess<{ id: number }>(await as(other).post('/org', { name: `matrix-other-${randomBytes(3).toString('hex')}` }), 201).id;
    const joined = expectSuccess<{ uid: number }>(await as(owner).post(`/org/${fx.org}/member`, { username: carol.account.username, role: 'viewer' }), 201);
    expectSuccess(await as(carol).post(`/user/invitation/${joined.uid}/accept`));
    fx.fence = expectSuccess<{ uid: number }>(await as(owner).post('/user/fence', { name: 'matrix fence', geometry: SQUARE }), 201).uid;
    fx.eui = await freshDevice();
    fx.dashboard = expectSuccess<{ uid: number }>(await as(owner).post('/user/dashboard', { name: 'matrix', widgets: [dashboardTile(fx.eui)] }), 201).uid;
    fx.integration = expectSuccess<{ uid: number }>(
      await as(owner).post('/user/integration', {
        name: 'matrix',
        kind: 'webhook',
        url: `${hooks.url}/matrix`,
        events: ['uplink'],
        devices: { euis: [fx.eui] },
      }),
      201,
    ).uid;
    fx.otherEui = newEui();
    expectSuccess(await as(other).post(`/user/device/${fx.otherEui}`), 201);
    const items = [1, 2, 3].map((fcnt) => ({ devEUI: fx.eui, port: 1, payload_hex: '0167010E', fcnt, time_stamp_unix: 1_777_636_800 + fcnt }));
    expect(
      expectSuccess<{ accepted: number }>(await svc.http().post('/ingest/rest').set('X-Ingest-Secret', TEST_SECRETS.INGEST_SECRET).send(items), 202).accepted,
    ).toBe(3);
    // The fixture uplinks are old: an offline rule of a minute raises an alert for the device at once.
    fx.rule = expectSuccess<{ uid: number }>(
      await as(owner).post('/user/rule', { name: 'matrix', kind: 'offline', minutes: 1, devices: { euis: [fx.eui] } }),
      201,
    ).uid;
    await eventually(
      async () => {
        fx.delivery =
          (await ownerGet<{ id: number; state: string }[]>(`/user/integration/${fx.integration}/deliveries`)).find((d) => d.state === 'delivered')?.id ?? 0;
        fx.alert = (await ownerGet<{ uid: number }[]>(`/user/alert?eui=${fx.eui}`))[0]?.uid ?? 0;
        return !!(fx.delivery && fx.alert);
      },
      { what: 'a delivered delivery and an alert', timeoutMs: 30_000, intervalMs: 100 },
    );
    // Disabled, so that nothing of it moves by itself while the matrix compares before and after.
    expectSuccess(await as(owner).patch(`/user/integration/${fx.integration}`, { enabled: false }));
    fx.command = await freshCommand();
    const image = await freshImage();
    fx.hash = image.hash;
    fx.imageUrl = image.meta.url;
    const otherImage = await freshImage(fx.otherEui, other);
    fx.otherHash = otherImage.hash;
    fx.otherImageUrl = otherImage.meta.url;
    fx.networkType = (await ownerGet<{ uid: number }[]>('/datamodel/network/type'))[0]!.uid;
    fx.dataType = (await ownerGet<{ uid: number }[]>('/datamodel/data/type/all'))[0]!.uid;
    // Real time by nature: the token's expiry is whole seconds, compared with the database's clock
    // (a second's margin).
    await pause(Math.max(0, until + 1_500 - Date.now()));
    expectError(
      await svc
        .http()
        .get('/user')
        .set(...bearer(expiredToken)),
      401,
      'TOKEN_EXPIRED',
    );
  }, 120_000);

  afterAll(async () => {
    // Stop listening first, then drop every connection: the api may connect again (a command
    // retried) between a destroy and the close, and close() waits for every connection to end.
    const closed = new Promise((r) => (blackhole ? blackhole.close(r) : r(undefined)));
    for (const s of held) s.destroy();
    blackhole?.closeAllConnections();
    await closed;
    await svc?.close();
    await hooks.stop();
  });

  /** Status and envelope of an SSE route: the stream is dropped as soon as its head arrives. */
  const sse = (path: string, header: [string, string] | null) =>
    new Promise<{ status: number; type: string; body: Record<string, unknown> | null }>((resolve, reject) => {
      const req = httpRequest(`${svc.url}${path}`, { headers: header ? { [header[0]]: header[1] } : {} }, (res) => {
        const type = String(res.headers['content-type'] ?? '');
        if (type.startsWith('text/event-stream')) {
          res.destroy();
          resolve({ status: res.statusCode!, type, body: null });
          return;
        }
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, type, body: JSON.parse(text) as Record<string, unknown> }));
      });
      req.on('error', reject);
      req.end();
    });

  const call = async (entry: Entry, role: Role, target: Target): Promise<Response | { status: number; body: unknown; type?: string }> => {
    const header = credentials(role, target.owner ?? owner);
    const [method] = entry.route.split(' ');
    if (entry.sse) return sse(target.path, header);
    const req = svc.http()[method!.toLowerCase() as 'get' | 'post' | 'patch' | 'delete'](target.path);
    if (header) req.set(...header);
    if (target.file) return req.attach('file', target.file, 'matrix.png');
    return target.body === undefined ? req : req.send(target.body as object);
  };

  const expected = (entry: Entry, role: Role): Expect | 'n/a' => {
    const e = entry.expect;
    switch (role) {
      case 'none':
        return [401, 'AUTH_REQUIRED'];
      case 'expired':
        return [401, 'TOKEN_EXPIRED'];
      case 'other':
        return e.other;
      case 'admin':
        return e.admin ?? e.other;
      case 'shared':
        return e.shared;
      case 'session':
        return e.session ?? e.owner;
      case 'app':
        return e.app ?? e.owner;
      case 'master':
        return e.master ?? e.owner;
    }
  };

  it('has a line for every route that names an object, and no line for a route that does not exist', async () => {
    const routes = expectSuccess<{ method: string; path: string; auth: string }[]>(await svc.http().get('/routes'));
    const keys = routes.map((r) => `${r.method} ${r.path}`);
    // Single sign-on's routes name a configured provider, no account's object, and need no
    // credentials: oidc.e2e-spec.ts holds them to a real provider.
    const covered = new Set([...MATRIX.map((e) => e.route), ...INGEST_ROUTES, LINK_ROUTE, ...SIGN_IN_ROUTES]);
    const needed = routes
      .filter((r) => r.path.includes('{') || r.auth === 'ingest' || BODY_OBJECT_ROUTES.includes(`${r.method} ${r.path}`))
      .map((r) => `${r.method} ${r.path}`);
    expect(needed.filter((k) => !covered.has(k))).toEqual([]);
    expect([...covered].filter((k) => !keys.includes(k))).toEqual([]);
    // What the table covers, for docs/reliability.md.
    const calls = MATRIX.reduce((n, e) => n + ROLES.filter((r) => expected(e, r) !== 'n/a').length, 0);
    process.stdout.write(
      `authorization matrix: ${new Set(MATRIX.map((e) => e.route)).size} routes, ${MATRIX.length} lines × ${ROLES.length} roles = ${calls} calls\n`,
    );
  });

  // Refusals first, on every line: a successful owner call may consume the fixture's object.
  const ORDER: Role[] = ['none', 'expired', 'other', 'admin', 'shared', 'app', 'session', 'master'];

  it.each(MATRIX.map((e) => [`${e.route}${e.variant ? ` (${e.variant})` : ''}`, e] as const))(
    '%s',
    async (_name, entry) => {
      const outcomes: Record<string, unknown> = {};
      const wanted: Record<string, Expect> = {};
      for (const role of ORDER) {
        const want = expected(entry, role);
        if (want === 'n/a') continue;
        const target = await entry.target(role);
        const refused = typeof want !== 'number';
        const before = refused && target.state ? await target.state() : undefined;
        const res = await call(entry, role, target);
        const body = res.body as { success?: boolean; data?: unknown; errors?: { code: string }[] } | null;
        outcomes[role] = typeof want === 'number' ? res.status : [res.status, body?.errors?.[0]?.code ?? null];
        wanted[role] = want;
        if (refused) {
          // A refusal is the error envelope, without data, and changes nothing the owner can see.
          expectError(res as Response, want[0], want[1]);
          if (target.state) expect({ role, state: await target.state() }).toEqual({ role, state: before });
        } else if (entry.sse) {
          expect((res as { type: string }).type).toMatch(/^text\/event-stream/);
        } else if (entry.file) {
          expect((res as Response).type).toBe(entry.file);
        } else {
          expect(body).toMatchObject({ success: true, errors: [] });
        }
        if (!refused && entry.verify) await entry.verify(role, target, body?.data);
      }
      expect(outcomes).toEqual(Object.fromEntries(Object.entries(wanted).map(([k, v]) => [k, typeof v === 'number' ? v : [...v]])));
    },
    60_000,
  );

  /*
   * Ingestion: the platform secret, or an API token of the device owner's account (which reaches
   * that account's devices only). Another account's token, or a shared user's, is refused per
   * item (202, rejected NOT_FOUND) and stores nothing; a wrong or absent secret fails the request.
   */
  const INGEST_ROUTES = ['POST /ingest/rest', 'POST /ingest/ttn', 'POST /ingest/chirpstack', 'POST /ingest/http/{uid}', 'POST /ingest/image'];
  const LINK_ROUTE = 'GET /files/image/{image_hash}';
  type IngestCredential = 'secret' | 'wrong secret' | 'none' | 'owner token' | 'expired token' | 'shared token' | 'other token';
  const ingestHeader = (c: IngestCredential): [string, string] | null => {
    switch (c) {
      case 'secret':
        return ['X-Ingest-Secret', TEST_SECRETS.INGEST_SECRET];
      case 'wrong secret':
        return ['X-Ingest-Secret', `${TEST_SECRETS.INGEST_SECRET}x`];
      case 'none':
        return null;
      case 'owner token':
        return bearer(owner.appToken);
      case 'expired token':
        return bearer(expiredToken);
      case 'shared token':
        return bearer(shared.appToken);
      case 'other token':
        return bearer(other.appToken);
    }
  };
  let fcnt = 100;
  const uplinkCount = async () => (await ownerGet<unknown[]>(`/user/device/table/${fx.eui}`)).length;
  const INGEST: { name: string; send: (header: [string, string] | null) => Promise<Response>; state: () => Promise<unknown> }[] = [
    {
      name: 'POST /ingest/rest',
      send: (h) =>
        withHeader(svc.http().post('/ingest/rest'), h).send({
          devEUI: fx.eui,
          port: 1,
          payload_hex: '0167010E',
          fcnt: ++fcnt,
          time_stamp_unix: 1_777_636_800 + fcnt,
        }),
      state: uplinkCount,
    },
    {
      name: 'POST /ingest/ttn',
      send: (h) => {
        // The network's own sample message, moved to this device and made a new message.
        const body = structuredClone(TTN_UPLINK_SAMPLE);
        body.end_device_ids.dev_eui = fx.eui;
        body.end_device_ids.device_id = `eui-${fx.eui.toLowerCase()}`;
        body.correlation_ids = [`as:up:matrix-${++fcnt}`];
        body.uplink_message.f_cnt = fcnt;
        body.uplink_message.received_at = new Date((1_777_636_800 + fcnt) * 1000).toISOString();
        return withHeader(svc.http().post('/ingest/ttn'), h).send(body);
      },
      state: uplinkCount,
    },
    {
      name: 'POST /ingest/chirpstack',
      send: (h) => {
        const body = structuredClone(CHIRPSTACK_UPLINK_SAMPLE);
        body.deviceInfo.devEui = fx.eui.toLowerCase();
        body.deduplicationId = `00000000-0000-4000-8000-${String(++fcnt).padStart(12, '0')}`;
        body.time = new Date((1_777_636_800 + fcnt) * 1000).toISOString();
        body.fCnt = fcnt;
        return withHeader(svc.http().post('/ingest/chirpstack?event=up'), h).send(body);
      },
      state: uplinkCount,
    },
    {
      name: 'POST /ingest/ttn (a join_accept: the device’s activity)',
      send: (h) =>
        withHeader(svc.http().post('/ingest/ttn'), h).send({
          end_device_ids: { device_id: `eui-${fx.eui.toLowerCase()}`, dev_eui: fx.eui },
          join_accept: { session_key_id: 'AYc=', received_at: new Date((1_777_636_800 + ++fcnt) * 1000).toISOString() },
        }),
      state: () => ownerGet(`/user/device/meta/${fx.eui}`),
    },
    {
      name: 'POST /ingest/chirpstack (a status event in Protobuf: the battery level)',
      send: (h) => {
        // test-data's status.bin with this device's EUI in place of the example's (same length).
        const bytes = readFileSync(join(__dirname, '../../../test-data/chirpstack/protobuf/status.bin'));
        bytes.write(fx.eui.toLowerCase(), bytes.indexOf('0101010101010101'), 'latin1');
        return withHeader(svc.http().post('/ingest/chirpstack?event=status'), h).set('Content-Type', 'application/octet-stream').send(bytes);
      },
      state: () => ownerGet(`/user/device/meta/${fx.eui}`),
    },
    {
      name: 'POST /ingest/http/{uid} (the global HTTP JSON network)',
      send: (h) => withHeader(svc.http().post('/ingest/http/5'), h).send({ devEUI: fx.eui, port: 1, payload: '0167010E', id: `matrix-${++fcnt}` }),
      state: uplinkCount,
    },
    {
      name: 'POST /ingest/ttn (a downlink event naming the owner’s command uid)',
      send: (h) => withHeader(svc.http().post('/ingest/ttn'), h).send({ correlation_ids: [`dts:command:${fx.command}`], downlink_ack: { f_port: 2 } }),
      state: () => commandState(fx.command),
    },
  ];
  function withHeader<T extends { set(name: string, value: string): T }>(req: T, header: [string, string] | null): T {
    return header ? req.set(header[0], header[1]) : req;
  }

  it.each(INGEST.map((c) => [c.name, c] as const))('%s with each kind of credentials', async (_name, route) => {
    // Refusals first (the command event moves the command once it is accepted).
    const order: IngestCredential[] = ['wrong secret', 'none', 'expired token', 'shared token', 'other token', 'owner token', 'secret'];
    const seen: Record<string, unknown> = {};
    for (const c of order) {
      const before = await route.state();
      const res = await route.send(ingestHeader(c));
      if (res.status === 202) {
        const data = res.body.data as { accepted: number; duplicates: number; rejected: { code: string }[] };
        seen[c] = data.accepted + data.duplicates > 0 ? 'accepted' : data.rejected.map((r) => r.code).join(',');
        if (seen[c] !== 'accepted') expect({ c, state: await route.state() }).toEqual({ c, state: before });
      } else {
        expectError(res, res.status, res.body.errors?.[0]?.code);
        seen[c] = [res.status, res.body.errors?.[0]?.code];
        expect({ c, state: await route.state() }).toEqual({ c, state: before });
      }
    }
    expect(seen).toEqual({
      'wrong secret': [401, 'INVALID_TOKEN'],
      none: [401, 'AUTH_REQUIRED'],
      'expired token': [401, 'TOKEN_EXPIRED'],
      'shared token': 'NOT_FOUND',
      'other token': 'NOT_FOUND',
      'owner token': 'accepted',
      secret: 'accepted',
    });
  });

  it('POST /ingest/http/{uid} on the owner’s own HTTP JSON network with each kind of credentials', async () => {
    const network = expectSuccess<{ uid: number }>(await as(owner).post('/user/network', { name: 'matrix LNS', adapter: 'http-json' }), 201);
    const seen: Record<string, unknown> = {};
    for (const c of ['wrong secret', 'none', 'expired token', 'shared token', 'other token', 'owner token', 'secret'] as const) {
      const before = await uplinkCount();
      const res = await withHeader(svc.http().post(`/ingest/http/${network.uid}`), ingestHeader(c)).send({
        devEUI: fx.eui,
        port: 1,
        payload: '0167010E',
        id: `own-${++fcnt}`,
      });
      seen[c] = res.status === 202 ? (res.body.data as { accepted: number }).accepted : [res.status, res.body.errors?.[0]?.code];
      if (res.status !== 202) {
        expectError(res, res.status, res.body.errors?.[0]?.code);
        expect(await uplinkCount()).toBe(before);
      }
    }
    expect(seen).toEqual({
      'wrong secret': [401, 'INVALID_TOKEN'],
      none: [401, 'AUTH_REQUIRED'],
      'expired token': [401, 'TOKEN_EXPIRED'],
      'shared token': [404, 'NOT_FOUND'],
      'other token': [404, 'NOT_FOUND'],
      'owner token': 1,
      secret: 1,
    });
  });

  it('POST /ingest/image with each kind of credentials', async () => {
    const count = async () => (await ownerGet<unknown[]>(`/user/device/image/${fx.eui}`)).length;
    const seen: Record<string, unknown> = {};
    for (const c of ['wrong secret', 'none', 'expired token', 'shared token', 'other token', 'owner token', 'secret'] as const) {
      const before = await count();
      const res = await withHeader(svc.http().post('/ingest/image'), ingestHeader(c))
        .field('devEUI', fx.eui)
        .attach('file', await tinyPng(), 'ingest.png');
      seen[c] = res.status === 201 ? 201 : [res.status, res.body.errors?.[0]?.code];
      if (res.status !== 201) {
        expectError(res, res.status, res.body.errors?.[0]?.code);
        expect(await count()).toBe(before);
      } else expect(await count()).toBe(before + 1);
    }
    expect(seen).toEqual({
      'wrong secret': [401, 'INVALID_TOKEN'],
      none: [401, 'AUTH_REQUIRED'],
      'expired token': [401, 'TOKEN_EXPIRED'],
      'shared token': [404, 'NOT_FOUND'],
      'other token': [404, 'NOT_FOUND'],
      'owner token': 201,
      secret: 201,
    });
  });

  it('GET /files/image/{hash}: the signed link is the credential; any change to it is 403, account credentials open nothing', async () => {
    const link = new URL(fx.imageUrl);
    const path = `${link.pathname}${link.search}`;
    const q = link.searchParams;
    const otherQ = new URL(fx.otherImageUrl).searchParams;
    const file = await svc.http().get(path);
    expect({ status: file.status, type: file.headers['content-type'] }).toEqual({ status: 200, type: 'image/png' });
    const flip = (s: string) => `${s.slice(0, -1)}${s.endsWith('A') ? 'B' : 'A'}`;
    const altered: [string, string, [string, string] | null][] = [
      ['signature changed', `${link.pathname}?expires=${q.get('expires')}&signature=${flip(q.get('signature')!)}`, null],
      ['expires moved on', `${link.pathname}?expires=${Number(q.get('expires')) + 1}&signature=${q.get('signature')}`, null],
      ['expired', `${link.pathname}?expires=${Math.floor(Date.now() / 1000) - 10}&signature=${q.get('signature')}`, null],
      ['another image’s signature', `${link.pathname}?expires=${otherQ.get('expires')}&signature=${otherQ.get('signature')}`, null],
      ['no signature', `${link.pathname}?expires=${q.get('expires')}`, null],
      ['no query, the owner’s session', link.pathname, ['Cookie', owner.cookie]],
      ['no query, the owner’s master token', link.pathname, bearer(owner.masterToken)],
      ['another account’s image with this link’s query', `/files/image/${fx.otherHash}${link.search}`, bearer(owner.masterToken)],
    ];
    const seen = Object.fromEntries(
      await Promise.all(
        altered.map(async ([name, p, h]) => {
          const res = await withHeader(svc.http().get(p), h);
          expectError(res, 403, 'FORBIDDEN');
          return [name, res.status] as const;
        }),
      ),
    );
    expect(Object.values(seen)).toEqual(altered.map(() => 403));
  });
});
