import {
  type AuditEventWire,
  type InvitationWire,
  KEY_RIGHTS,
  type KeyRight,
  type MemberWire,
  ORG_ROLES,
  type OrganisationWire,
  type OrgRole,
  roleAtLeast,
  type RouteWire,
} from '@dts/domain';
import { randomBytes } from 'node:crypto';
import type { Test } from 'supertest';
import { accountWithCredentials, bearer, createToken, login, tokenClient } from './support/accounts';
import { expectError, expectSuccess } from './support/envelope';
import { startTestService, type TestService } from './support/harness';
import { startSmtpServer, verificationToken } from './support/smtp-server';

/*
 * Organisations (docs/api.md §20): an account that people act in with a role. A session names the
 * organisation in X-Organisation; a key made in it acts in it alone. Another organisation's
 * objects, and an organisation one is not a member of, answer 404; a role too weak for the route
 * answers 403 ROLE_REQUIRED and changes nothing. Members come in by invitation only, to a verified
 * address, mailed through a real SMTP server; an organisation never loses its last owner.
 */

type Person = Awaited<ReturnType<typeof accountWithCredentials>>;
const newEui = () => randomBytes(8).toString('hex').toUpperCase();
const INVITED = /^You are invited to /;
const ADMIN = { username: 'org_admin', password: 'org-admin-password-0123' };

describe('organisations, members, roles and invitations', () => {
  let svc: TestService;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let alice: Person;
  let bob: Person;
  let org: OrganisationWire;

  const as = (who: Person, organisation?: string) => {
    const set = (t: Test) => (organisation === undefined ? t.set('Cookie', who.cookie) : t.set('Cookie', who.cookie).set('X-Organisation', organisation));
    return {
      get: (path: string) => set(svc.http().get(path)),
      post: (path: string, body: object = {}) => set(svc.http().post(path)).send(body),
      patch: (path: string, body: object = {}) => set(svc.http().patch(path)).send(body),
      delete: (path: string) => set(svc.http().delete(path)),
    };
  };
  /** The person's own app token. */
  const tokenOf = (who: Person) => tokenClient(svc, who.appToken);
  /** A person whose address is verified (through the mail a real SMTP server received): invitations reach only such. */
  const verifiedPerson = async (prefix: string) => {
    const who = await accountWithCredentials(svc, prefix);
    const mail = await smtp.waitForMail(who.account.email, /verify/i);
    expectSuccess(
      await svc
        .http()
        .post('/auth/verify')
        .send({ token: verificationToken(mail) }),
    );
    return who;
  };
  /** Invites `who` into `organisation` as `role` and accepts: a member. */
  const join = async (organisation: OrganisationWire, who: Person, role: string, by: Person = alice) => {
    const invitation = expectSuccess<InvitationWire>(await as(by).post(`/org/${organisation.id}/member`, { username: who.account.username, role }), 201);
    expectSuccess(await as(who).post(`/user/invitation/${invitation.uid}/accept`));
  };
  const deviceEuis = async (who: Person, organisation?: string) => expectSuccess<string[]>(await as(who, organisation).get('/user/device'));

  beforeAll(async () => {
    smtp = await startSmtpServer();
    svc = await startTestService({
      env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, AUTH_RATE_LIMIT_PER_MINUTE: '1000', ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password },
    });
    alice = await verifiedPerson('alice');
    bob = await verifiedPerson('bob');
    org = expectSuccess<OrganisationWire>(await as(alice).post('/org', { name: `fleet-${randomBytes(3).toString('hex')}`, fullname: 'The fleet' }), 201);
  }, 60_000);
  afterAll(async () => {
    await svc?.close();
    await smtp?.close();
  });

  describe('creating one', () => {
    it('makes the caller its owner, on a new account’s plan, listed among the caller’s organisations', async () => {
      expect(org).toMatchObject({ name: org.name, fullname: 'The fleet', role: 'owner', members: 1, devices: 0, max_devices: svc.config.accounts.maxDevices });
      expect(expectSuccess<OrganisationWire[]>(await as(alice).get('/org'))).toEqual([org]);
      expect(expectSuccess(await as(alice).get(`/org/${org.id}`))).toEqual(org);
      // A person in no organisation sees none, and the spec's routes as before.
      expect(expectSuccess(await as(bob).get('/org'))).toEqual([]);
    });

    it('refuses a name taken by a person or an organisation (one namespace), a bad name naming the field, and nobody', async () => {
      expectError(await as(bob).post('/org', { name: alice.account.username }), 409, 'USERNAME_TAKEN', 'name');
      expectError(await as(bob).post('/org', { name: org.name.toUpperCase() }), 409, 'USERNAME_TAKEN', 'name');
      expectError(await as(bob).post('/org', { name: 'a b' }), 400, 'VALIDATION_FAILED', 'name');
      // Digits name an organisation by its id: no name may be only digits.
      expectError(await as(bob).post('/org', { name: String(org.id) }), 400, 'VALIDATION_FAILED', 'name');
      expectError(await as(bob).post('/org', { name: '4570' }), 400, 'VALIDATION_FAILED', 'name');
      expectError(await svc.http().post('/org').send({ name: 'nobodys' }), 401, 'AUTH_REQUIRED');
      expect(expectSuccess(await as(bob).get('/org'))).toEqual([]);
    });

    it('cannot be signed in to, by its name or its e-mail key', async () => {
      expectError(await svc.http().post('/auth/login').send({ username: org.name, password: 'whatever password' }), 401, 'INVALID_CREDENTIALS');
      expectError(
        await svc
          .http()
          .post('/auth/login')
          .send({ username: `#${org.name}`, password: 'whatever password' }),
        401,
        'INVALID_CREDENTIALS',
      );
    });
  });

  describe('acting in it', () => {
    it('registers a device that the organisation owns, seen only when acting in it', async () => {
      const eui = newEui();
      expectSuccess(await as(alice, org.name).post(`/user/device/${eui}`, { label: 'fleet tracker' }), 201);
      expect(await deviceEuis(alice, org.name)).toContain(eui);
      expect(await deviceEuis(alice)).not.toContain(eui);
      // By id as well as by name; GET /user answers the organisation's plan for the person.
      expect(await deviceEuis(alice, String(org.id))).toContain(eui);
      const me = expectSuccess<{ id: number; username: string; max_devices: number }>(await as(alice, org.name).get('/user'));
      expect(me).toMatchObject({ id: alice.account.id, username: alice.account.username, max_devices: org.max_devices });
      expect(expectSuccess<OrganisationWire>(await as(alice).get(`/org/${org.id}`)).devices).toBe(1);
    });

    it('opens the live feed in it with ?organisation= (EventSource sends no headers), and not for a non-member', async () => {
      const open = async (who: Person, organisation: string) => {
        const stop = new AbortController();
        const res = await fetch(`${svc.url}/user/live?organisation=${encodeURIComponent(organisation)}`, {
          headers: { Cookie: who.cookie },
          signal: stop.signal,
        });
        const answer = { status: res.status, type: res.headers.get('content-type'), body: res.status === 200 ? null : await res.json() };
        stop.abort();
        return answer;
      };
      expect(await open(alice, org.name)).toMatchObject({ status: 200, type: expect.stringContaining('text/event-stream') });
      expect(await open(bob, org.name)).toMatchObject({ status: 404, body: { errors: [{ code: 'NOT_FOUND', field: 'X-Organisation' }] } });
      // Only the live feeds take it: elsewhere it is no organisation (the header is the way).
      expect(expectSuccess<string[]>(await as(alice).get(`/user/device?organisation=${org.name}`))).toEqual(await deviceEuis(alice));
    });

    it('shares a device with an organisation and hands one over to it, by its name, as between people', async () => {
      const team = expectSuccess<OrganisationWire>(await as(bob).post('/org', { name: `share-${randomBytes(3).toString('hex')}` }), 201);
      const shared = newEui();
      expectSuccess(await as(alice).post(`/user/device/${shared}`, { label: 'shared with a team' }), 201);
      expectSuccess(await as(alice).post(`/user/device/share/${shared}`, { username: team.name }), 201);
      expect(await deviceEuis(bob, team.name)).toContain(shared);
      expect(await deviceEuis(bob)).not.toContain(shared);
      // A hand-over offered to the organisation is accepted by acting in it.
      const given = newEui();
      expectSuccess(await as(alice).post(`/user/device/${given}`, { label: 'given to a team' }), 201);
      expectSuccess(await as(alice).post(`/user/device/handover/${given}`, { username: team.name }), 201);
      expectError(await as(bob).post(`/user/device/handover/${given}/accept`), 404, 'NOT_FOUND');
      expectSuccess(await as(bob, team.name).post(`/user/device/handover/${given}/accept`));
      expect(await deviceEuis(bob, team.name)).toContain(given);
      expect(await deviceEuis(alice)).not.toContain(given);
    });

    it('answers 404 naming X-Organisation to a non-member and for an organisation that does not exist; another organisation’s device is 404', async () => {
      const eui = newEui();
      expectSuccess(await as(alice, org.name).post(`/user/device/${eui}`, {}), 201);
      expectError(await as(bob, org.name).get('/user/device'), 404, 'NOT_FOUND', 'X-Organisation');
      expectError(await as(bob, org.name).post(`/user/device/${newEui()}`, {}), 404, 'NOT_FOUND', 'X-Organisation');
      expectError(await as(alice, 'no-such-org').get('/user/device'), 404, 'NOT_FOUND', 'X-Organisation');
      // A person's account is not an organisation to act in.
      expectError(await as(alice, bob.account.username).get('/user/device'), 404, 'NOT_FOUND', 'X-Organisation');
      expectError(await as(bob).get(`/user/device/meta/${eui}`), 404, 'NOT_FOUND');
      expectError(await as(bob).get(`/org/${org.id}`), 404, 'NOT_FOUND', 'uid');
      expectError(await as(bob).get(`/org/${org.id}/member`), 404, 'NOT_FOUND', 'uid');
    });
  });

  describe('invitations', () => {
    it('invites by username: mailed to the verified address, listed for the invitee, accepted into a membership with its role', async () => {
      const carol = await verifiedPerson('carol');
      const invitation = expectSuccess<InvitationWire>(
        await as(alice).post(`/org/${org.id}/member`, { username: carol.account.username, role: 'viewer' }),
        201,
      );
      expect(invitation).toMatchObject({
        organisation_id: org.id,
        organisation: org.name,
        email: carol.account.email.toLowerCase(),
        role: 'viewer',
        invited_by: alice.account.username,
      });
      const mail = await smtp.waitForMail(carol.account.email, INVITED);
      expect(mail.text).toContain(`/user/invitation/${invitation.uid}/accept`);
      expect(expectSuccess(await as(carol).get('/user/invitation'))).toEqual([invitation]);
      expect(expectSuccess(await as(alice).get(`/org/${org.id}/invitation`))).toEqual([invitation]);
      // Not to be taken by anyone else.
      expectError(await as(bob).post(`/user/invitation/${invitation.uid}/accept`), 404, 'NOT_FOUND', 'uid');
      expect(expectSuccess(await as(carol).post(`/user/invitation/${invitation.uid}/accept`))).toEqual({ organisation_id: org.id, role: 'viewer' });
      const members = expectSuccess<MemberWire[]>(await as(carol).get(`/org/${org.id}/member`));
      expect(members.map((m) => [m.username, m.role])).toContainEqual([carol.account.username, 'viewer']);
      expect(expectSuccess(await as(carol).get('/user/invitation'))).toEqual([]);
      expectError(await as(carol).post(`/user/invitation/${invitation.uid}/accept`), 404, 'NOT_FOUND', 'uid');
    });

    it('reaches an address only once an account verified it; declined, it is gone', async () => {
      const dave = await accountWithCredentials(svc, 'dave');
      expectError(await as(alice).post(`/org/${org.id}/member`, { username: dave.account.username, role: 'viewer' }), 400, 'VALIDATION_FAILED', 'username');
      const invitation = expectSuccess<InvitationWire>(await as(alice).post(`/org/${org.id}/invitation`, { email: dave.account.email, role: 'operator' }), 201);
      expect(expectSuccess(await as(dave).get('/user/invitation'))).toEqual([]);
      expectError(await as(dave).post(`/user/invitation/${invitation.uid}/accept`), 404, 'NOT_FOUND', 'uid');
      expectSuccess(
        await svc
          .http()
          .post('/auth/verify')
          .send({ token: verificationToken(await smtp.waitForMail(dave.account.email, /verify/i)) }),
      );
      expect(expectSuccess<InvitationWire[]>(await as(dave).get('/user/invitation')).map((i) => i.uid)).toEqual([invitation.uid]);
      expect(expectSuccess(await as(dave).post(`/user/invitation/${invitation.uid}/decline`))).toEqual({ uid: invitation.uid, declined: true });
      expect(expectSuccess(await as(dave).get('/user/invitation'))).toEqual([]);
      expectError(await as(dave, org.name).get('/user/device'), 404, 'NOT_FOUND', 'X-Organisation');
    });

    it('refuses a bad role or address naming the field, an invitation above the inviter’s role, and a viewer inviting', async () => {
      expectError(await as(alice).post(`/org/${org.id}/invitation`, { email: 'x@example.org', role: 'boss' }), 400, 'VALIDATION_FAILED', 'role');
      expectError(await as(alice).post(`/org/${org.id}/invitation`, { email: 'not an address', role: 'viewer' }), 400, 'VALIDATION_FAILED', 'email');
      const team = expectSuccess<OrganisationWire>(await as(alice).post('/org', { name: `team-${randomBytes(3).toString('hex')}` }), 201);
      const erin = await verifiedPerson('erin');
      await join(team, erin, 'admin');
      expectError(await as(erin).post(`/org/${team.id}/invitation`, { email: 'boss@example.org', role: 'owner' }), 403, 'ROLE_REQUIRED', 'role');
      expectSuccess(await as(erin).post(`/org/${team.id}/invitation`, { email: 'admin@example.org', role: 'admin' }), 201);
      expectSuccess(await as(alice).patch(`/org/${team.id}/member/${erin.account.id}`, { role: 'viewer' }));
      expectError(await as(erin).post(`/org/${team.id}/invitation`, { email: 'op@example.org', role: 'viewer' }), 403, 'ROLE_REQUIRED');
      expect(expectSuccess<InvitationWire[]>(await as(alice).get(`/org/${team.id}/invitation`)).map((i) => i.email)).toEqual(['admin@example.org']);
    });
  });

  describe('roles', () => {
    let team: OrganisationWire;
    let viewer: Person;
    let eui: string;
    beforeAll(async () => {
      team = expectSuccess<OrganisationWire>(await as(alice).post('/org', { name: `roles-${randomBytes(3).toString('hex')}` }), 201);
      viewer = await verifiedPerson('viewer');
      await join(team, viewer, 'viewer');
      eui = newEui();
      expectSuccess(await as(alice, team.name).post(`/user/device/${eui}`, { label: 'before' }), 201);
    });

    it('a viewer reads and changes nothing (403 ROLE_REQUIRED)', async () => {
      expect(await deviceEuis(viewer, team.name)).toEqual([eui]);
      expectSuccess(await as(viewer, team.name).get(`/user/device/meta/${eui}`));
      const refused = newEui();
      expectError(await as(viewer, team.name).post(`/user/device/${refused}`, {}), 403, 'ROLE_REQUIRED');
      expectError(await as(viewer, team.name).post(`/user/device/meta/${eui}`, { label: 'changed' }), 403, 'ROLE_REQUIRED');
      expectError(await as(viewer, team.name).post(`/user/device/command/${eui}`, { port: 1, data: 'AQ==' }), 403, 'ROLE_REQUIRED');
      expectError(await as(viewer, team.name).delete(`/user/device/${eui}`), 403, 'ROLE_REQUIRED');
      expect(await deviceEuis(alice, team.name)).toEqual([eui]);
      expect(expectSuccess<{ label: string }[]>(await as(alice, team.name).get(`/user/device/meta/${eui}`))[0]!.label).toBe('before');
    });

    it('an operator works the devices but not the keys, integrations or networks (admins’)', async () => {
      expectSuccess(await as(alice).patch(`/org/${team.id}/member/${viewer.account.id}`, { role: 'operator' }));
      expectSuccess(await as(viewer, team.name).post(`/user/device/meta/${eui}`, { label: 'by operator' }));
      expectError(await as(viewer, team.name).post('/user/token', { type: 'API' }), 403, 'ROLE_REQUIRED');
      expectError(await as(viewer, team.name).get('/user/token'), 403, 'ROLE_REQUIRED');
      expectError(await as(viewer, team.name).get('/user/integration'), 403, 'ROLE_REQUIRED');
      expectError(
        await as(viewer, team.name).post('/user/network', { type: 'chirpstack', name: 'x', url: 'https://example.org', key: 'k' }),
        403,
        'ROLE_REQUIRED',
      );
      expectError(await as(viewer).patch(`/org/${team.id}`, { fullname: 'renamed' }), 403, 'ROLE_REQUIRED');
      expect(expectSuccess<{ label: string }[]>(await as(alice, team.name).get(`/user/device/meta/${eui}`))[0]!.label).toBe('by operator');
    });

    it('an admin makes keys of the organisation: they act in it alone, with the maker’s role, and stop when the maker leaves', async () => {
      expectSuccess(await as(alice).patch(`/org/${team.id}/member/${viewer.account.id}`, { role: 'admin' }));
      const key = await createToken(svc, viewer.cookie, 'API', {}).catch(() => null);
      expect(key).not.toBeNull(); // the person's own key, in their own account
      const created = expectSuccess<number>(await as(viewer, team.name).post('/user/token', { type: 'API', name: 'fleet importer' }), 201);
      const listed = expectSuccess<{ uid: number; hash: string }[]>(await as(viewer, team.name).get('/user/token')).find((t) => t.uid === created)!;
      const teamKey = listed.hash;
      const withKey = (path: string) =>
        svc
          .http()
          .get(path)
          .set(...bearer(teamKey));
      expect(expectSuccess<string[]>(await withKey('/user/device'))).toEqual([eui]);
      // Naming its own organisation is fine; another is not one it can see.
      expectSuccess(await withKey('/user/device').set('X-Organisation', team.name));
      expectError(await withKey('/user/device').set('X-Organisation', org.name), 404, 'NOT_FOUND', 'X-Organisation');
      // A person's routes are not an organisation key's.
      expectError(await withKey('/user/session'), 403, 'FORBIDDEN', 'Authorization');
      expectError(await withKey('/org'), 403, 'FORBIDDEN', 'Authorization');
      // Another admin lists the organisation's keys, not their values: a key acts with its maker's role.
      const other = await verifiedPerson('otheradmin');
      await join(team, other, 'admin');
      const seen = expectSuccess<{ uid: number; hash: string }[]>(await as(other, team.name).get('/user/token')).find((t) => t.uid === created)!;
      expect(seen.hash).toBe('');
      // Managing the team is a session's or a master token's: not a (leaked) app token's.
      expectError(await tokenOf(alice).delete(`/org/${team.id}?devices=delete`), 403, 'FORBIDDEN');
      expectError(await tokenOf(alice).post(`/org/${team.id}/invitation`, { email: 'x@example.org', role: 'admin' }), 403, 'FORBIDDEN');
      // The maker becomes a viewer: the key does what a viewer may.
      expectSuccess(await as(alice).patch(`/org/${team.id}/member/${viewer.account.id}`, { role: 'viewer' }));
      expectError(
        await svc
          .http()
          .post(`/user/device/${newEui()}`)
          .set(...bearer(teamKey))
          .send({}),
        403,
        'ROLE_REQUIRED',
      );
      expectSuccess(await withKey('/user/device'));
      // The maker is removed: the key stops at once, and so does the maker's session in it.
      expect(expectSuccess(await as(alice).delete(`/org/${team.id}/member/${viewer.account.id}`))).toEqual({ account_id: viewer.account.id, removed: true });
      expectError(await withKey('/user/device'), 401, 'INVALID_TOKEN');
      expectError(await as(viewer, team.name).get('/user/device'), 404, 'NOT_FOUND', 'X-Organisation');
    });
  });

  describe('owners', () => {
    it('an organisation keeps one owner: the last cannot leave or step down; ownership is handed over by making another owner', async () => {
      const team = expectSuccess<OrganisationWire>(await as(alice).post('/org', { name: `owners-${randomBytes(3).toString('hex')}` }), 201);
      const frank = await verifiedPerson('frank');
      await join(team, frank, 'admin');
      expectError(await as(alice).delete(`/org/${team.id}/member/${alice.account.id}`), 409, 'LAST_OWNER', 'account');
      expectError(await as(alice).patch(`/org/${team.id}/member/${alice.account.id}`, { role: 'admin' }), 409, 'LAST_OWNER', 'account');
      // An admin cannot touch an owner, nor make one.
      expectError(await as(frank).patch(`/org/${team.id}/member/${alice.account.id}`, { role: 'viewer' }), 403, 'ROLE_REQUIRED', 'role');
      expectError(await as(frank).patch(`/org/${team.id}/member/${frank.account.id}`, { role: 'owner' }), 403, 'ROLE_REQUIRED', 'role');
      expectError(await as(frank).delete(`/org/${team.id}/member/${alice.account.id}`), 403, 'ROLE_REQUIRED', 'account');
      // A person who is an organisation's only owner cannot delete their account.
      expectError(await as(alice).delete('/auth/register').send({ password: alice.account.password }), 409, 'LAST_OWNER');
      expectSuccess(await as(alice).patch(`/org/${team.id}/member/${frank.account.id}`, { role: 'owner' }));
      expect(expectSuccess(await as(alice).delete(`/org/${team.id}/member/${alice.account.id}`))).toEqual({ account_id: alice.account.id, removed: true });
      expect(expectSuccess<MemberWire[]>(await as(frank).get(`/org/${team.id}/member`)).map((m) => [m.username, m.role])).toEqual([
        [frank.account.username, 'owner'],
      ]);
      expectError(await as(alice).get(`/org/${team.id}`), 404, 'NOT_FOUND', 'uid');
    });

    it('deletes it with its devices handed to the owner’s own account; only an owner may', async () => {
      const team = expectSuccess<OrganisationWire>(await as(bob).post('/org', { name: `gone-${randomBytes(3).toString('hex')}` }), 201);
      const eui = newEui();
      expectSuccess(await as(bob, team.name).post(`/user/device/${eui}`, { label: 'kept' }), 201);
      const gina = await verifiedPerson('gina');
      await join(team, gina, 'admin', bob);
      expectError(await as(gina).delete(`/org/${team.id}?devices=delete`), 403, 'ROLE_REQUIRED');
      expectError(await as(bob).delete(`/org/${team.id}?devices=hand_over&to=${alice.account.username}`), 404, 'NOT_FOUND', 'to');
      expectError(await as(bob).delete(`/org/${team.id}?devices=maybe`), 400, 'VALIDATION_FAILED', 'devices');
      expect(expectSuccess(await as(bob).delete(`/org/${team.id}?devices=hand_over&to=${bob.account.username}`))).toEqual({
        id: team.id,
        deleted: true,
        devices_deleted: 0,
        devices_handed_over: 1,
        to: bob.account.id,
      });
      expect(await deviceEuis(bob)).toContain(eui);
      expectError(await as(bob).get(`/org/${team.id}`), 404, 'NOT_FOUND', 'uid');
      expect(expectSuccess(await as(gina).get('/org'))).toEqual([]);
    });
  });

  describe('its audit log', () => {
    it('records who acted in the organisation; read by its admins and owners, not by viewers or outsiders', async () => {
      const eui = newEui();
      expectSuccess(await as(alice, org.name).post(`/user/device/${eui}`, { label: 'audited' }), 201);
      const page = expectSuccess<AuditEventWire[]>(await as(alice).get(`/org/${org.id}/audit?action=/user/device/`));
      expect(page[0]).toMatchObject({ account_id: alice.account.id, organisation_id: org.id, action: 'POST /user/device/{eui}', target: { eui }, status: 201 });
      expect(page.every((e) => e.organisation_id === org.id)).toBe(true);
      // Its management, which acts as the person, is the organisation's record too.
      const managed = expectSuccess<AuditEventWire[]>(await as(alice).get(`/org/${org.id}/audit?action=/org/`));
      expect(managed.map((e) => e.action)).toContain('POST /org/{uid}/member');
      expect(managed.every((e) => e.organisation_id === org.id && e.target.uid === String(org.id))).toBe(true);
      // The person's own calls are not the organisation's.
      expectSuccess(await as(alice).post(`/user/device/${newEui()}`, {}), 201);
      expect(expectSuccess<AuditEventWire[]>(await as(alice).get(`/org/${org.id}/audit`)).every((e) => e.organisation_id === org.id)).toBe(true);
      const csv = await as(alice).get(`/org/${org.id}/audit?format=csv&action=/user/device/`);
      expect(csv.status).toBe(200);
      expect(csv.text).toContain(eui);
      const hank = await verifiedPerson('hank');
      await join(org, hank, 'viewer');
      expectError(await as(hank).get(`/org/${org.id}/audit`), 403, 'ROLE_REQUIRED');
      expectError(await as(bob).get(`/org/${org.id}/audit`), 404, 'NOT_FOUND', 'uid');
      expectError(await svc.http().get(`/org/${org.id}/audit`), 401, 'AUTH_REQUIRED');
    });
  });

  describe('every route, from the route table (GET /routes)', () => {
    it('changes nothing for viewers by default: every route that is not a read needs an operator at least, unless it says more', async () => {
      const routes = expectSuccess<RouteWire[]>(await svc.http().get('/routes'));
      const open = routes.filter((r) => r.role === 'viewer' && r.method !== 'GET' && r.method !== 'HEAD');
      expect(open).toEqual([]);
      // Every route that acts in an account says which role; the rest act on the person or need no account.
      for (const r of routes) expect(r.role === null).toBe(r.personal || (r.auth !== 'user' && r.auth !== 'ingest'));
    });

    it('refuses each member role below what each route needs (403 ROLE_REQUIRED), and an organisation’s key on each personal route (403 FORBIDDEN)', async () => {
      const routes = expectSuccess<RouteWire[]>(await svc.http().get('/routes'));
      const team = expectSuccess<OrganisationWire>(await as(alice).post('/org', { name: `table-${randomBytes(3).toString('hex')}` }), 201);
      const members = {} as Record<OrgRole, Person>;
      for (const role of ORG_ROLES.filter((r) => r !== 'owner')) {
        members[role] = await verifiedPerson(`t${role}`);
        await join(team, members[role], role);
      }
      members.owner = alice;
      const created = expectSuccess<number>(await as(alice, team.name).post('/user/token', { type: 'master' }), 201);
      const teamKey = expectSuccess<{ uid: number; hash: string }[]>(await as(alice, team.name).get('/user/token')).find((t) => t.uid === created)!.hash;
      // Path parameters are never read: the guard refuses before any pipe or handler runs.
      const call = (r: RouteWire) => svc.http()[r.method.toLowerCase() as 'get'](r.path.replace(/\{[^}]+\}/g, '1'));
      const refusals: string[] = [];
      for (const r of routes) {
        if (r.role !== null) {
          for (const role of ORG_ROLES.filter((x) => !roleAtLeast(x, r.role!))) {
            const res = await call(r).set('Cookie', members[role].cookie).set('X-Organisation', team.name).send({});
            if (res.status !== 403 || res.body.errors?.[0]?.code !== 'ROLE_REQUIRED') refusals.push(`${r.method} ${r.path} as ${role}: ${res.status}`);
          }
        }
        if (r.personal && r.auth === 'user') {
          const res = await call(r)
            .set(...bearer(teamKey))
            .send({});
          if (res.status !== 403 || res.body.errors?.[0]?.code !== 'FORBIDDEN')
            refusals.push(`${r.method} ${r.path} with the organisation's key: ${res.status}`);
        }
      }
      expect(refusals).toEqual([]);
      // And the table is not empty of what it tests.
      expect(routes.filter((r) => r.role === 'admin').length).toBeGreaterThan(5);
      expect(routes.filter((r) => r.personal).length).toBeGreaterThan(10);
    });
  });

  describe('administrators', () => {
    it('list organisations apart, inspect their members, set their plan and disable one: its members stop acting in it', async () => {
      const cookie = await login(svc, { id: 0, email: '', ...ADMIN });
      const admin = (t: Test) => t.set('Cookie', cookie);
      const team = expectSuccess<OrganisationWire>(await as(alice).post('/org', { name: `plan-${randomBytes(3).toString('hex')}` }), 201);
      const listed = expectSuccess<{ id: number; kind: string; members: number | null }[]>(
        await admin(svc.http().get(`/admin/accounts?kind=organisation&q=${team.name}`)),
      );
      expect(listed).toEqual([expect.objectContaining({ id: team.id, kind: 'organisation', members: 1, email: '' })]);
      expect(expectSuccess<{ kind: string }[]>(await admin(svc.http().get('/admin/accounts?kind=person'))).every((a) => a.kind === 'person')).toBe(true);
      expectError(await admin(svc.http().get('/admin/accounts?kind=robot')), 400, 'VALIDATION_FAILED', 'kind');
      expect(expectSuccess<MemberWire[]>(await admin(svc.http().get(`/admin/accounts/${team.id}/members`))).map((m) => [m.username, m.role])).toEqual([
        [alice.account.username, 'owner'],
      ]);
      expectError(await admin(svc.http().get(`/admin/accounts/${alice.account.id}/members`)), 404, 'NOT_FOUND', 'id');
      expectError(await admin(svc.http().post(`/admin/accounts/${team.id}/password-reset`)), 400, 'VALIDATION_FAILED', 'id');
      // Its plan is an administrator's to set, as any account's.
      expectSuccess(await admin(svc.http().patch(`/admin/accounts/${team.id}`)).send({ max_devices: 3 }));
      expect(expectSuccess<{ max_devices: number }>(await as(alice, team.name).get('/user')).max_devices).toBe(3);
      // Disabled: nobody acts in it until it is enabled again.
      expectSuccess(await admin(svc.http().patch(`/admin/accounts/${team.id}`)).send({ active: 0 }));
      expectError(await as(alice, team.name).get('/user/device'), 404, 'NOT_FOUND', 'X-Organisation');
      expectSuccess(await admin(svc.http().patch(`/admin/accounts/${team.id}`)).send({ active: 1 }));
      expectSuccess(await as(alice, team.name).get('/user/device'));
    });
  });

  describe('keys with rights', () => {
    /** A key of the person's own account with this list of rights, made with their session. */
    const keyWith = async (who: Person, rights: KeyRight[] | null, organisation?: string) => {
      const uid = expectSuccess<number>(await as(who, organisation).post('/user/token', { type: 'master', rights }), 201);
      return expectSuccess<{ uid: number; hash: string; rights: KeyRight[] | null }[]>(await as(who, organisation).get('/user/token')).find(
        (t) => t.uid === uid,
      )!;
    };

    it('does what its rights say, on the fast read too, and refuses the rest (403 RIGHT_REQUIRED) without a change', async () => {
      const eui = newEui();
      expectSuccess(await as(bob).post(`/user/device/${eui}`, { label: 'mine' }), 201);
      const reader = await keyWith(bob, ['read']);
      expect(reader.rights).toEqual(['read']);
      const key = (t: Test) => t.set(...bearer(reader.hash));
      expect(expectSuccess<string[]>(await key(svc.http().get('/user/device')))).toContain(eui);
      expectSuccess(await key(svc.http().get(`/user/device/meta/${eui}`)));
      expectError(await key(svc.http().post(`/user/device/meta/${eui}`)).send({ label: 'changed' }), 403, 'RIGHT_REQUIRED', 'Authorization');
      expectError(await key(svc.http().post(`/user/device/command/${eui}`)).send({ port: 1, payload_hex: '01' }), 403, 'RIGHT_REQUIRED', 'Authorization');
      expectError(await key(svc.http().get('/user/token')), 403, 'RIGHT_REQUIRED', 'Authorization');
      expectError(await key(svc.http().get('/org')), 403, 'RIGHT_REQUIRED', 'Authorization');
      expect(expectSuccess<{ label: string }[]>(await as(bob).get(`/user/device/meta/${eui}`))[0]!.label).toBe('mine');
      // The fast read refuses a key without `read` too.
      const sender = await keyWith(bob, ['commands']);
      expectError(
        await svc
          .http()
          .get('/user/device')
          .set(...bearer(sender.hash)),
        403,
        'RIGHT_REQUIRED',
        'Authorization',
      );
    });

    it('never makes a key with more rights than the key that makes it; without a list, the maker’s', async () => {
      const maker = await keyWith(bob, ['read', 'keys']);
      const asMaker = (path: string, body: object) =>
        svc
          .http()
          .post(path)
          .set(...bearer(maker.hash))
          .send(body);
      expectError(await asMaker('/user/token', { type: 'API', rights: ['read', 'commands'] }), 403, 'RIGHT_REQUIRED', 'rights');
      const child = expectSuccess<number>(await asMaker('/user/token', { type: 'API' }), 201);
      const narrower = expectSuccess<number>(await asMaker('/user/token', { type: 'API', rights: ['read'] }), 201);
      const listed = expectSuccess<{ uid: number; rights: KeyRight[] | null }[]>(
        await svc
          .http()
          .get('/user/token')
          .set(...bearer(maker.hash)),
      );
      expect(listed.find((t) => t.uid === child)!.rights).toEqual(['read', 'keys']);
      expect(listed.find((t) => t.uid === narrower)!.rights).toEqual(['read']);
      expectError(await as(bob).post('/user/token', { type: 'API', rights: ['everything'] }), 400, 'VALIDATION_FAILED', 'rights');
      expectError(await as(bob).post('/user/token', { type: 'API', rights: ['read', 'read'] }), 400, 'VALIDATION_FAILED', 'rights');
    });

    it('every route names the right a key needs, and a key with every other right is refused it', async () => {
      const routes = expectSuccess<RouteWire[]>(await svc.http().get('/routes'));
      // Deny by default, and nothing forgotten: every route that acts in an account names a right.
      expect(routes.filter((r) => (r.auth === 'user' || r.auth === 'ingest') && r.right === null).map((r) => `${r.method} ${r.path}`)).toEqual([]);
      const keys = new Map<KeyRight, string>();
      for (const right of KEY_RIGHTS)
        keys.set(
          right,
          (
            await keyWith(
              bob,
              KEY_RIGHTS.filter((r) => r !== right),
            )
          ).hash,
        );
      const refusals: string[] = [];
      for (const r of routes.filter((x) => x.right !== null)) {
        const res = await svc
          .http()
          [r.method.toLowerCase() as 'get'](r.path.replace(/\{[^}]+\}/g, '1'))
          .set(...bearer(keys.get(r.right!)!))
          .send({});
        if (res.status !== 403 || res.body.errors?.[0]?.code !== 'RIGHT_REQUIRED') refusals.push(`${r.method} ${r.path} without ${r.right}: ${res.status}`);
      }
      expect(refusals).toEqual([]);
      expect(new Set(routes.map((r) => r.right).filter((r) => r !== null))).toEqual(new Set(KEY_RIGHTS));
    });
  });

  it('a session logged in again acts in the organisation it names each time', async () => {
    const again = await login(svc, alice.account);
    const res = await svc.http().get('/user/device').set('Cookie', again).set('X-Organisation', org.name);
    expect(expectSuccess<unknown[]>(res).length).toBeGreaterThan(0);
  });
});
