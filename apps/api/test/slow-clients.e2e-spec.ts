import { eventually, pause } from '@dts/platform';
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { accountWithCredentials } from './support/accounts';
import { call } from './support/fault-load';
import { startTestService, type TestService } from './support/harness';

/*
 * Slow clients at the api itself (issue #9): slow-header and slow-body clients (slowloris) are cut
 * off by the server's timeouts, and while they hang on, everybody else is served. The load
 * balancer's own limits (connections per address, nginx's timeouts) are in deployment.e2e-spec.ts.
 * Nothing here touches the database or Redis beyond a sign-up: it runs once, in the first pass,
 * after the rest (jest.config.js SERIAL), since it times how promptly the others are served.
 */

const HEADERS_TIMEOUT_MS = 2_000;
const REQUEST_TIMEOUT_MS = 4_000;
/** Node checks the timeouts once a second: a cut comes up to a second late, more on a loaded machine. */
const CHECK_SLACK_MS = 2_500;

/** A raw connection, to send a request as slowly as an attacker would. */
async function rawConnection(url: string): Promise<{ socket: Socket; received: () => string; closedAfter: Promise<number> }> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let received = '';
  socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
  socket.on('error', () => undefined);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const opened = Date.now();
  const closedAfter = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - opened)));
  return { socket, received: () => received, closedAfter };
}

/**
 * Writes `parts` one every `everyMs` until they run out or the server closes the connection; `onSent`
 * hears the count so far. The pause is the slow client itself: its pace is what the test is about.
 */
async function trickle(socket: Socket, parts: string[], everyMs: number, onSent: (sent: number) => void = () => undefined): Promise<number> {
  let sent = 0;
  for (const part of parts) {
    if (socket.destroyed || socket.writableEnded) break;
    socket.write(part);
    onSent(++sent);
    await pause(everyMs);
  }
  return sent;
}

describe('slow clients are cut off by the server’s timeouts', () => {
  let svc: TestService;

  beforeAll(async () => {
    svc = await startTestService({ env: { HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS), HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) } });
  }, 60_000);
  afterAll(() => svc?.close());

  it('closes a connection whose headers trickle in (408), and serves others meanwhile', async () => {
    const slow = await rawConnection(svc.url);
    // A header line every 300 ms, never the blank line that ends them: 40 lines would take 12 s.
    const lines = ['GET /version HTTP/1.1\r\n', 'Host: dts\r\n', ...Array.from({ length: 40 }, (_, i) => `X-Slow-${i}: ${i}\r\n`)];
    let sentSoFar = 0;
    const sending = trickle(slow.socket, lines, 300, (n) => (sentSoFar = n));
    // Others are served while the slow client is mid-headers: once it has sent a few lines.
    await eventually(() => sentSoFar >= 3, { what: 'the slow client to have sent three header lines' });
    expect((await call(`${svc.url}/version`)).status).toBe(200);
    const closedAfter = await slow.closedAfter;
    const sent = await sending;
    process.stdout.write(
      `slow headers: 408 and closed after ${closedAfter} ms (HTTP_HEADERS_TIMEOUT_MS ${HEADERS_TIMEOUT_MS}), ${sent} of ${lines.length} header lines sent\n`,
    );
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(closedAfter).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 100);
    expect(closedAfter).toBeLessThan(HEADERS_TIMEOUT_MS + CHECK_SLACK_MS);
    expect(sent).toBeLessThan(lines.length);
  });

  it('holds 200 slowloris connections without refusing anyone, and drops them all at the timeout', async () => {
    const held = await Promise.all(Array.from({ length: 200 }, () => rawConnection(svc.url)));
    for (const c of held) c.socket.write('GET /version HTTP/1.1\r\nHost: dts\r\n');
    const answers = await Promise.all(Array.from({ length: 20 }, () => call(`${svc.url}/version`)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const closed = await Promise.all(held.map((c) => c.closedAfter));
    process.stdout.write(
      `slowloris: 200 held, 20 others answered ${answers.map((a) => a.ms).sort((a, b) => a - b)[19]} ms at worst, all 200 closed by ${Math.max(...closed)} ms\n`,
    );
    expect(Math.max(...closed)).toBeLessThan(HEADERS_TIMEOUT_MS + CHECK_SLACK_MS);
  });

  it('closes a connection whose body trickles in (408), storing nothing', async () => {
    const username = `slowbody_${randomBytes(3).toString('hex')}`;
    const body = JSON.stringify({ username, email: `${username}@example.org`, password: 'a slow but valid password' });
    const slow = await rawConnection(svc.url);
    slow.socket.write(`POST /auth/register HTTP/1.1\r\nHost: dts\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
    // The headers arrive at once; the body a byte every 250 ms would take far past the timeout.
    const sent = await trickle(slow.socket, [...body.slice(0, -1)], 250);
    const closedAfter = await slow.closedAfter;
    process.stdout.write(
      `slow body: 408 and closed after ${closedAfter} ms (HTTP_REQUEST_TIMEOUT_MS ${REQUEST_TIMEOUT_MS}), ${sent} of ${body.length} bytes sent\n`,
    );
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(closedAfter).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
    expect(closedAfter).toBeLessThan(REQUEST_TIMEOUT_MS + CHECK_SLACK_MS);
    expect(sent).toBeLessThan(body.length - 1);
    // The account was never created: logging in with it fails.
    const login = await call(`${svc.url}/auth/login`, { method: 'POST', json: { username, password: 'a slow but valid password' } });
    expect(login.status).toBe(401);
  });

  it('lets a slow but steady request finish inside the limits', async () => {
    const { appToken } = await accountWithCredentials(svc, 'steady');
    const body = JSON.stringify({ label: 'steady' });
    const eui = randomBytes(8).toString('hex').toUpperCase();
    const slow = await rawConnection(svc.url);
    slow.socket.write(
      `POST /user/device/${eui} HTTP/1.1\r\nHost: dts\r\nAuthorization: Bearer ${appToken}\r\nContent-Type: application/json\r\nConnection: close\r\n`,
    );
    // Real time is the point: the headers end half-way through their limit, and the body takes the
    // rest of the request's limit in two halves, slow but inside both bounds.
    await pause(HEADERS_TIMEOUT_MS / 2);
    slow.socket.write(`Content-Length: ${body.length}\r\n\r\n`);
    await trickle(slow.socket, [body.slice(0, 5), body.slice(5)], REQUEST_TIMEOUT_MS / 4);
    await slow.closedAfter;
    expect(slow.received()).toMatch(/^HTTP\/1\.1 201 /);
  });
});
