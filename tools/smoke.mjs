// Start-up smoke test of the built service under whichever Node.js runs this script (`.ci/run`
// runs it on the active LTS through `npx -p node@26`): starts dist/ on an empty embedded database,
// takes a device from registration to decoded data, and stops it with SIGTERM. Exits non-zero,
// with what the service printed, when any step fails.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const dataDir = mkdtempSync(join(tmpdir(), 'dts-smoke-'));
const port = await new Promise((resolve) => {
  const server = createServer().listen(0, '127.0.0.1', () => {
    const { port } = server.address();
    server.close(() => resolve(port));
  });
});
const base = `http://127.0.0.1:${port}`;
const EUI = '70B3D57ED0000A01';

let output = '';
const began = Date.now();
const service = spawn(process.execPath, [join(root, 'dist/apps/api/src/main.js')], {
  env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn', LOG_PRETTY: 'false' },
  stdio: ['ignore', 'pipe', 'pipe'],
});
service.stdout.on('data', (d) => (output += d));
service.stderr.on('data', (d) => (output += d));
const exited = new Promise((resolve) => service.on('exit', (code, signal) => resolve({ code, signal })));

async function call(method, path, { body, headers = {} } = {}) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = await res.json();
  return { status: res.status, envelope, cookie: res.headers.get('set-cookie')?.split(';')[0] };
}

function expect(what, ok, detail) {
  if (!ok) throw new Error(`${what}: ${typeof detail === 'string' ? detail : JSON.stringify(detail)}`);
}

try {
  for (;;) {
    try {
      if ((await fetch(`${base}/health/ready`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() - began > 60_000) throw new Error('not ready within 60 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  const readyMs = Date.now() - began;

  const account = { username: 'smoke', email: 'smoke@example.org', password: 'smoke test password' };
  expect('register', (await call('POST', '/auth/register', { body: account })).status === 201);
  const login = await call('POST', '/auth/login', { body: { username: account.username, password: account.password } });
  expect('login', login.status === 200 && login.cookie, login.envelope);
  const session = { Cookie: login.cookie };
  const device = await call('POST', `/user/device/${EUI}`, { body: { label: 'smoke', decoder_ref: 2 }, headers: session });
  expect('register a Cayenne LPP device', device.status === 201, device.envelope);

  // The platform ingest secret the embedded mode generated under DATA_DIR.
  const { INGEST_SECRET } = JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8'));
  const uplink = { devEUI: EUI, port: 1, payload_hex: '016700E5', fcnt: 1, time_stamp_unix: Math.floor(Date.now() / 1000) };
  const ingest = await call('POST', '/ingest/rest', { body: uplink, headers: { 'X-Ingest-Secret': INGEST_SECRET } });
  expect('ingest one uplink', ingest.status === 202 && ingest.envelope.data.accepted === 1, ingest.envelope);
  const data = await call('GET', `/user/device/data/${EUI}`, { headers: session });
  expect('read it back decoded', data.status === 200 && data.envelope.data[0]?.temperature === 22.9, data.envelope);

  service.kill('SIGTERM');
  const { code, signal } = await exited;
  expect('exit 0 on SIGTERM', code === 0, `exit code ${code}, signal ${signal}`);
  console.log(`smoke test on Node.js ${process.version}: ready ${readyMs} ms after spawn; device to data; SIGTERM exit 0`);
} catch (error) {
  service.kill('SIGKILL');
  console.error(`smoke test on Node.js ${process.version} failed: ${error.message}\n--- the service printed ---\n${output}`);
  process.exitCode = 1;
} finally {
  await exited;
  rmSync(dataDir, { recursive: true, force: true });
}
