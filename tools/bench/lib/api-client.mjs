// Accounts, tokens and devices made through the API, as apps/api/test/support/accounts.ts does.
import { randomBytes } from 'node:crypto';

export async function call(baseUrl, method, path, { body, headers = {}, expect } = {}) {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON
  }
  if (expect !== undefined && res.status !== expect) throw new Error(`${method} ${path}: ${res.status} (expected ${expect}) ${text.slice(0, 300)}`);
  return { status: res.status, headers: res.headers, body: json };
}

/** Registers an account, logs in and creates an app token. */
export async function accountWithToken(baseUrl, prefix = 'bench') {
  const username = `${prefix}_${randomBytes(4).toString('hex')}`;
  const password = `pw-${randomBytes(8).toString('hex')}`;
  await call(baseUrl, 'POST', '/auth/register', { body: { username, email: `${username}@example.org`, password }, expect: 201 });
  const login = await call(baseUrl, 'POST', '/auth/login', { body: { username, password }, expect: 200 });
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .find((c) => c.startsWith('dts_session='));
  if (!cookie) throw new Error('login set no session cookie');
  const created = await call(baseUrl, 'POST', '/user/token', { body: { type: 'API' }, headers: { Cookie: cookie }, expect: 201 });
  const list = await call(baseUrl, 'GET', '/user/token', { headers: { Cookie: cookie }, expect: 200 });
  const token = list.body.data.find((t) => t.uid === created.body.data);
  if (!token) throw new Error('the new token is not listed');
  return { username, cookie, token: token.hash, auth: { Authorization: `Bearer ${token.hash}` } };
}

export const newEui = () => randomBytes(8).toString('hex').toUpperCase();

/** Registers a device (Cayenne LPP decoder by default) and returns its EUI and uid. */
export async function createDevice(baseUrl, account, { eui = newEui(), decoderRef = 2, extra = {} } = {}) {
  const res = await call(baseUrl, 'POST', `/user/device/${eui}`, { body: { decoder_ref: decoderRef, ...extra }, headers: account.auth, expect: 201 });
  return { eui, uid: res.body.data.uid };
}

/** A Cayenne LPP payload: temperature (ch 1), humidity (ch 2), voltage (ch 4). */
export function lppHex(t, h, volt) {
  const b = Buffer.alloc(11);
  b.writeUInt8(1, 0);
  b.writeUInt8(0x67, 1);
  b.writeInt16BE(Math.round(t * 10), 2);
  b.writeUInt8(2, 4);
  b.writeUInt8(0x68, 5);
  b.writeUInt8(Math.round(h * 2), 6);
  b.writeUInt8(4, 7);
  b.writeUInt8(0x74, 8);
  b.writeUInt16BE(Math.round(volt * 100), 9);
  return b.toString('hex').toUpperCase();
}
