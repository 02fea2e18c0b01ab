import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AccountsRepository } from '../accounts/accounts.repository';
import { dataSourceOptions, runMigrations } from '../data-source';
import { Statements } from '../sql/statements';
import { suiteDatabase } from '../testing/suite-database';
import { TokensRepository } from '../tokens/tokens.repository';
import { OrganisationsRepository } from './organisations.repository';

/**
 * Organisations' storage, on both databases: one namespace with usernames, the owner limit, an
 * owner never lost to concurrent changes, invitations only for a verified address, and a key's
 * role read from its maker's membership at each look-up.
 */
describe('OrganisationsRepository', () => {
  let ds: DataSource;
  let stop: () => Promise<void>;
  let organisations: OrganisationsRepository;
  let accounts: AccountsRepository;
  let tokens: TokensRepository;

  const person = async (verified = true) => {
    const name = `p${randomBytes(5).toString('hex')}`;
    const created = await accounts.create({
      username: name,
      email: `${name}@example.org`,
      fullname: '',
      passwordHash: 'x',
      groupid: 2,
      maxDevices: 10,
      expiresOn: '2099-01-01',
      emailVerified: verified,
    });
    if (!created.ok) throw new Error(created.conflict);
    return created.account;
  };
  const organisation = async (ownerId: number) => {
    const created = await organisations.create({
      ownerId,
      name: `o${randomBytes(5).toString('hex')}`,
      fullname: '',
      maxDevices: 10,
      expiresOn: '2099-01-01',
      ownedLimit: 20,
    });
    if (!created.ok) throw new Error(created.reason);
    return created.id;
  };
  /** Invited by `by` (an owner) and accepted. */
  const member = async (organisationId: number, accountId: number, role: 'owner' | 'admin' | 'operator' | 'viewer', by: number) => {
    const email = (await accounts.findById(accountId))!.emailKey;
    const { invitation } = await organisations.invite(organisationId, email, role, by, 100);
    expect(await organisations.accept(invitation.uid, accountId)).toEqual({ ok: true, organisationId, role });
  };

  beforeAll(async () => {
    const db = await suiteDatabase('organisations');
    stop = db.stop;
    await runMigrations({ url: db.url, poolSize: 1 });
    ds = await new DataSource(dataSourceOptions({ url: db.url, poolSize: 4 })).initialize();
    const statements = new Statements(ds, false);
    organisations = new OrganisationsRepository(ds, statements);
    accounts = new AccountsRepository(ds, statements);
    tokens = new TokensRepository(ds, statements);
  });
  afterAll(async () => {
    await ds?.destroy();
    await stop?.();
  });

  it('shares the username namespace, any case, and stops at the owner’s limit', async () => {
    const alice = await person();
    const base = { ownerId: alice.id, fullname: '', maxDevices: 10, expiresOn: '2099-01-01', ownedLimit: 2 };
    expect(await organisations.create({ ...base, name: alice.username.toUpperCase() })).toEqual({ ok: false, reason: 'name' });
    const first = await organisations.create({ ...base, name: `Team-${randomBytes(3).toString('hex')}` });
    expect(first.ok).toBe(true);
    const name = (await organisations.get((first as { id: number }).id, alice.id))!.name;
    expect(await organisations.create({ ...base, name: name.toLowerCase() })).toEqual({ ok: false, reason: 'name' });
    expect((await organisations.create({ ...base, name: `t2-${randomBytes(3).toString('hex')}` })).ok).toBe(true);
    expect(await organisations.create({ ...base, name: `t3-${randomBytes(3).toString('hex')}` })).toEqual({ ok: false, reason: 'limit' });
    // It never signs in: no look-up by name or key finds it.
    expect(await accounts.findByLogin(name)).toBeNull();
    expect(await accounts.findByLogin(`#${name.toLowerCase()}`)).toBeNull();
    expect(await organisations.membership(name.toUpperCase(), alice.id)).toMatchObject({ name, role: 'owner' });
  });

  it('keeps an owner whatever two owners do to each other at once', async () => {
    for (let round = 0; round < 10; round++) {
      const [a, b] = [await person(), await person()];
      const id = await organisation(a.id);
      await member(id, b.id, 'owner', a.id);
      const results = await Promise.all(
        round % 2 === 0
          ? [organisations.setRole(id, a.id, 'viewer'), organisations.setRole(id, b.id, 'viewer')]
          : [organisations.removeMember(id, a.id), organisations.removeMember(id, b.id)],
      );
      expect(results.sort()).toEqual(['last_owner', 'ok']);
      const owners = (await organisations.members(id)).filter((m) => m.role === 'owner');
      expect(owners).toHaveLength(1);
    }
  });

  it('lets only the holder of the verified address take an invitation, once, before it expires', async () => {
    const owner = await person();
    const id = await organisation(owner.id);
    const unverified = await person(false);
    const { invitation, mailed } = await organisations.invite(id, unverified.emailKey, 'operator', owner.id, 1);
    expect(mailed).toBe(true);
    // The hourly mail limit per address holds across organisations; the invitation is kept.
    const again = await organisations.invite(await organisation(owner.id), unverified.emailKey, 'viewer', owner.id, 1);
    expect(again.mailed).toBe(false);
    expect(await organisations.invitationsFor(unverified.id)).toEqual([]);
    expect(await organisations.accept(invitation.uid, unverified.id)).toEqual({ ok: false });
    await ds.query('UPDATE accounts SET email_verified_at = now() WHERE id = $1', [unverified.id]);
    expect((await organisations.invitationsFor(unverified.id)).map((i) => i.organisation_id).sort()).toEqual([id, again.invitation.organisation_id].sort());
    const stranger = await person();
    expect(await organisations.accept(invitation.uid, stranger.id)).toEqual({ ok: false });
    expect(await organisations.accept(invitation.uid, unverified.id)).toEqual({ ok: true, organisationId: id, role: 'operator' });
    expect(await organisations.accept(invitation.uid, unverified.id)).toEqual({ ok: false });
    await ds.query(`UPDATE organisation_invitations SET expires_at = now() - interval '1 second' WHERE uid = $1`, [again.invitation.uid]);
    expect(await organisations.accept(again.invitation.uid, unverified.id)).toEqual({ ok: false });
  });

  it('gives a key its maker’s role at each look-up, and ends it with the membership', async () => {
    const owner = await person();
    const maker = await person();
    const id = await organisation(owner.id);
    await member(id, maker.id, 'admin', owner.id);
    const digest = randomBytes(32);
    const created = await tokens.createWithinLimit(
      { accountId: id, digest, valueEncrypted: randomBytes(40), type: 'app', name: null, until: null, createdBy: maker.id, rights: null },
      100,
    );
    expect(created.ok).toBe(true);
    expect(await tokens.findCredential(digest)).toMatchObject({ accountId: id, createdBy: maker.id, role: 'admin', organisation: true, creatorActive: 1 });
    expect(await organisations.setRole(id, maker.id, 'viewer')).toBe('ok');
    expect(await tokens.findCredential(digest)).toMatchObject({ role: 'viewer' });
    await ds.query('UPDATE accounts SET active = 0 WHERE id = $1', [maker.id]);
    expect(await tokens.findCredential(digest)).toMatchObject({ creatorActive: 0 });
    expect(await tokens.isLive((created as { token: { uid: number } }).token.uid)).toBe(false);
    await ds.query('UPDATE accounts SET active = 1 WHERE id = $1', [maker.id]);
    expect(await organisations.removeMember(id, maker.id)).toBe('ok');
    expect(await tokens.findCredential(digest)).toBeNull();
    // A person's own key: the owner of its account.
    const own = randomBytes(32);
    await tokens.createWithinLimit(
      { accountId: owner.id, digest: own, valueEncrypted: randomBytes(40), type: 'app', name: null, until: null, createdBy: null, rights: ['read'] },
      100,
    );
    expect(await tokens.findCredential(own)).toMatchObject({
      accountId: owner.id,
      createdBy: null,
      role: 'owner',
      organisation: false,
      creatorActive: 1,
      rights: ['read'],
    });
  });

  it('offers nothing once the inviter no longer holds the role the invitation gives', async () => {
    const owner = await person();
    const admin = await person();
    const invitee = await person();
    const id = await organisation(owner.id);
    await member(id, admin.id, 'admin', owner.id);
    const { invitation } = await organisations.invite(id, invitee.emailKey, 'admin', admin.id, 100);
    expect((await organisations.invitationsFor(invitee.id)).map((i) => i.uid)).toEqual([invitation.uid]);
    expect(await organisations.setRole(id, admin.id, 'operator')).toBe('ok');
    expect(await organisations.invitationsFor(invitee.id)).toEqual([]);
    expect(await organisations.accept(invitation.uid, invitee.id)).toEqual({ ok: false });
  });

  it('lets co-owners deleting their accounts at once leave one owner at least', async () => {
    for (let round = 0; round < 5; round++) {
      const [a, b] = [await person(), await person()];
      const id = await organisation(a.id);
      await member(id, b.id, 'owner', a.id);
      const results = await Promise.all([organisations.leaveAllUnlessSoleOwner(a.id), organisations.leaveAllUnlessSoleOwner(b.id)]);
      const name = (await ds.query('SELECT username FROM accounts WHERE id = $1', [id]))[0].username as string;
      expect(results.map((r) => r.length).sort()).toEqual([0, 1]);
      expect(results.flat()).toEqual([name]);
      expect((await organisations.members(id)).filter((m) => m.role === 'owner')).toHaveLength(1);
    }
  });

  it('names the organisations a person is the only owner of', async () => {
    const a = await person();
    const b = await person();
    const solo = await organisation(a.id);
    const shared = await organisation(a.id);
    await member(shared, b.id, 'owner', a.id);
    const names = await organisations.soleOwnerOf(a.id);
    expect(names).toEqual([(await organisations.get(solo, a.id))!.name]);
    expect(await organisations.soleOwnerOf(b.id)).toEqual([]);
  });
});
