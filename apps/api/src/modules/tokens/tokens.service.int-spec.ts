import { MAX_TOKENS_PER_ACCOUNT } from '@dts/domain';
import { Authenticator } from '../../common/auth/authenticator.service';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { refusal, serviceTestingModule, type ServiceTestingModule } from '../../testing/service-testing-module';
import { TokensModule } from './tokens.module';
import { TokensService } from './tokens.service';

/** The rules of API tokens (scopes, expiry, revocation, the per-account cap), without HTTP. */
describe('TokensService', () => {
  let t: ServiceTestingModule;
  let tokens: TokensService;
  let auth: Authenticator;

  beforeAll(async () => {
    t = await serviceTestingModule([TokensModule]);
    tokens = t.get(TokensService);
    auth = t.get(Authenticator);
  });
  afterAll(() => t?.close());

  async function valueOf(owner: AuthPrincipal, uid: number): Promise<string> {
    return (await tokens.list(owner)).find((x) => x.uid === uid)!.hash;
  }

  it('stores API and app as app, master as master, and lists each with its name and until', async () => {
    const alice = await t.account();
    for (const [type, stored] of [
      ['API', 'app'],
      ['app', 'app'],
      ['master', 'master'],
    ] as const) {
      const uid = await tokens.create(alice, { type, name: `t-${type}`, until: '2099-01-01 00:00:00' });
      expect((await tokens.list(alice)).find((x) => x.uid === uid)).toMatchObject({ type: stored, name: `t-${type}`, until: '2099-01-01 00:00:00' });
    }
  });

  it('shows an app token the app tokens only', async () => {
    const alice = await t.account();
    const app = await tokens.create(alice, { type: 'API' });
    const master = await tokens.create(alice, { type: 'master' });
    expect((await tokens.list(alice)).map((x) => x.uid).sort()).toEqual([app, master].sort());
    expect((await tokens.list(t.viaToken(alice, { type: 'app', uid: app }))).map((x) => x.uid)).toEqual([app]);
    expect((await tokens.list(t.viaToken(alice, { type: 'master', uid: master }))).map((x) => x.uid).sort()).toEqual([app, master].sort());
  });

  it('never lists another account’s tokens', async () => {
    const [alice, bob] = [await t.account(), await t.account()];
    await tokens.create(bob, { type: 'API' });
    expect(await tokens.list(alice)).toEqual([]);
  });

  it('lets a master token create a master token, and refuses it to an app token (FORBIDDEN on type)', async () => {
    const alice = await t.account();
    expect(Number.isInteger(await tokens.create(t.viaToken(alice, { type: 'master' }), { type: 'master' }))).toBe(true);
    expect(await refusal(tokens.create(t.viaToken(alice, { type: 'app' }), { type: 'master' }))).toMatchObject({ code: 'FORBIDDEN', field: 'type' });
    expect(Number.isInteger(await tokens.create(t.viaToken(alice, { type: 'app' }), { type: 'API' }))).toBe(true);
  });

  describe('expiry', () => {
    it('gives a token made by a token without until its creator’s until', async () => {
      const alice = await t.account();
      const creator = t.viaToken(alice, { type: 'master', until: new Date('2090-05-06T07:08:09Z') });
      const uid = await tokens.create(creator, { type: 'API' });
      expect((await tokens.list(alice)).find((x) => x.uid === uid)!.until).toBe('2090-05-06 07:08:09');
    });

    it('refuses an until past the creating token’s (VALIDATION_FAILED on until)', async () => {
      const alice = await t.account();
      const creator = t.viaToken(alice, { type: 'master', until: new Date('2090-01-01T00:00:00Z') });
      expect(await refusal(tokens.create(creator, { type: 'API', until: '2091-01-01 00:00:00' }))).toMatchObject({ code: 'VALIDATION_FAILED', field: 'until' });
      expect(await tokens.list(alice)).toEqual([]);
      expect(await tokens.create(creator, { type: 'API', until: '2089-01-01 00:00:00' })).toEqual(expect.any(Number));
    });

    it('leaves a session’s token without until unbounded', async () => {
      const alice = await t.account();
      const uid = await tokens.create(alice, { type: 'API' });
      expect((await tokens.list(alice)).find((x) => x.uid === uid)!.until).toBeNull();
    });

    it('refuses an expired token with TOKEN_EXPIRED, and takes one whose until is ahead', async () => {
      const alice = await t.account();
      const expired = await tokens.create(alice, { type: 'API', until: '2099-01-01 00:00:00' });
      const expiredValue = await valueOf(alice, expired);
      await t.sql('UPDATE api_tokens SET until = now() - interval $$1 second$$ WHERE uid = $1', [expired]);
      expect(await refusal(auth.authenticate({ token: expiredValue, cookie: null }))).toMatchObject({ code: 'TOKEN_EXPIRED' });
      const live = await tokens.create(alice, { type: 'API', until: '2099-01-01 00:00:00' });
      expect((await auth.authenticate({ token: await valueOf(alice, live), cookie: null }))!.principal).toMatchObject({
        accountId: alice.accountId,
        via: 'token',
        tokenType: 'app',
      });
    });
  });

  describe('revocation', () => {
    it('deletes a token, which stops authenticating at once; a second delete is NOT_FOUND', async () => {
      const alice = await t.account();
      const uid = await tokens.create(alice, { type: 'API' });
      const value = await valueOf(alice, uid);
      await auth.authenticate({ token: value, cookie: null });
      expect(await tokens.delete(alice, uid)).toBe(uid);
      expect(await refusal(auth.authenticate({ token: value, cookie: null }))).toMatchObject({ code: 'INVALID_TOKEN' });
      expect(await refusal(tokens.delete(alice, uid))).toMatchObject({ code: 'NOT_FOUND', field: 'uid' });
    });

    it('lets an app token delete app tokens, not a master token (FORBIDDEN, the master token kept)', async () => {
      const alice = await t.account();
      const app = await tokens.create(alice, { type: 'API' });
      const master = await tokens.create(alice, { type: 'master' });
      const viaApp = t.viaToken(alice, { type: 'app' });
      expect(await refusal(tokens.delete(viaApp, master))).toMatchObject({ code: 'FORBIDDEN', field: 'uid' });
      expect((await tokens.list(alice)).map((x) => x.uid)).toContain(master);
      expect(await tokens.delete(viaApp, app)).toBe(app);
      expect(await tokens.delete(t.viaToken(alice, { type: 'master' }), master)).toBe(master);
    });

    it('answers NOT_FOUND for another account’s token and leaves it alone', async () => {
      const [alice, bob] = [await t.account(), await t.account()];
      const bobs = await tokens.create(bob, { type: 'API' });
      expect(await refusal(tokens.delete(alice, bobs))).toMatchObject({ code: 'NOT_FOUND', field: 'uid' });
      expect((await tokens.list(bob)).map((x) => x.uid)).toEqual([bobs]);
    });
  });

  it(`stops at ${MAX_TOKENS_PER_ACCOUNT} tokens per account (TOKEN_LIMIT_REACHED), and a deletion makes room`, async () => {
    const carol = await t.account();
    const made: number[] = [];
    for (let i = 0; i < MAX_TOKENS_PER_ACCOUNT; i++) made.push(await tokens.create(carol, { type: 'API' }));
    expect(await refusal(tokens.create(carol, { type: 'API' }))).toMatchObject({ code: 'TOKEN_LIMIT_REACHED' });
    await tokens.delete(carol, made[0]!);
    expect(await tokens.create(carol, { type: 'API' })).toEqual(expect.any(Number));
  });

  it('keeps only a digest and the encrypted value at rest', async () => {
    const alice = await t.account();
    const uid = await tokens.create(alice, { type: 'API' });
    const value = await valueOf(alice, uid);
    const [row] = await t.sql<Record<string, unknown>>('SELECT * FROM api_tokens WHERE uid = $1', [uid]);
    expect(JSON.stringify(row)).not.toContain(value);
  });
});
