import { randomBytes } from 'node:crypto';
import type { TestService } from './harness';

export interface TestAccount {
  id: number;
  username: string;
  email: string;
  password: string;
}

export interface Credentials {
  /** Header name and value to send. */
  header: [string, string];
}

let counter = 0;

/** Registers a fresh account through the API. */
export async function registerAccount(svc: TestService, prefix = 'user'): Promise<TestAccount> {
  const username = `${prefix}${++counter}_${randomBytes(3).toString('hex')}`;
  const account = { username, email: `${username}@example.org`, password: `pw-${randomBytes(8).toString('hex')}` };
  const res = await svc.http().post('/auth/register').send(account).expect(201);
  return { id: res.body.data.id as number, ...account };
}

/** Logs in and returns the session cookie header value. */
export async function login(svc: TestService, account: TestAccount): Promise<string> {
  const res = await svc.http().post('/auth/login').send({ username: account.username, password: account.password }).expect(200);
  const cookie = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith(`${svc.config.session.cookieName}=`));
  if (!cookie) throw new Error('login set no session cookie');
  return cookie.split(';')[0]!;
}

/** Creates a token with a session and returns its uid and value. */
export async function createToken(svc: TestService, cookie: string, type: 'API' | 'app' | 'master' = 'API', extra: Record<string, unknown> = {}) {
  const created = await svc
    .http()
    .post('/user/token')
    .set('Cookie', cookie)
    .send({ type, ...extra })
    .expect(201);
  const uid = created.body.data as number;
  const list = await svc.http().get('/user/token').set('Cookie', cookie).expect(200);
  const token = (list.body.data as { uid: number; hash: string }[]).find((t) => t.uid === uid);
  if (!token) throw new Error(`token ${uid} is not listed`);
  return { uid, value: token.hash };
}

/** An account with a session cookie and an app token, ready to call the API. */
export async function accountWithCredentials(svc: TestService, prefix = 'user') {
  const account = await registerAccount(svc, prefix);
  const cookie = await login(svc, account);
  const app = await createToken(svc, cookie, 'API');
  const master = await createToken(svc, cookie, 'master');
  return {
    account,
    cookie,
    appToken: app.value,
    appTokenUid: app.uid,
    masterToken: master.value,
    masterTokenUid: master.uid,
    /** The typed client with the app token, the master token, and the session cookie. */
    client: svc.client({ token: app.value }),
    masterClient: svc.client({ token: master.value }),
    sessionClient: svc.client({ cookie }),
  };
}

export const bearer = (token: string): [string, string] => ['Authorization', `Bearer ${token}`];

/**
 * Requests carrying one bearer token: `tokenClient(svc, alice.appToken).post(path, body)`. A call
 * without a body sends `{}`, as a client posting an action with nothing to say does.
 */
export const tokenClient = (svc: TestService, token: string) => {
  const withBody = (method: 'post' | 'patch' | 'put') => (path: string, body?: unknown) =>
    svc
      .http()
      [method](path)
      .set(...bearer(token))
      .send((body ?? {}) as object);
  return {
    get: (path: string) =>
      svc
        .http()
        .get(path)
        .set(...bearer(token)),
    delete: (path: string) =>
      svc
        .http()
        .delete(path)
        .set(...bearer(token)),
    post: withBody('post'),
    patch: withBody('patch'),
    put: withBody('put'),
  };
};
