// The limit under figure 9's ingest-drop goal: the CPU that one webhook delivery costs at its bare
// minimum on this machine — a keep-alive node:http client sending a signed (HMAC-SHA256,
// Standard Webhooks headers) ~700-byte JSON event, and the bench's own receiver
// (tools/bench/baselines/webhook-sink.mjs) — with no database, no queue, no bookkeeping.
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// `node tools/bench/baselines/webhook-delivery-limit.mjs [seconds]` (Linux: CPU read from /proc).
const PORT = Number(process.env.PORT ?? 39871);
const sink = spawn(process.execPath, [fileURLToPath(new URL('./webhook-sink.mjs', import.meta.url))], {
  env: { ...process.env, PORT: String(PORT) },
  stdio: 'inherit',
});
await new Promise((r) => setTimeout(r, 800));
const ticks = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(f[11]) + Number(f[12]);
};
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
const secret = Buffer.from('0123456789abcdef0123456789abcdef');
const event = (i) =>
  JSON.stringify({
    type: 'uplink',
    timestamp: new Date().toISOString(),
    data: {
      eui: '70B3D57ED0000A01',
      uid: i,
      received_unix: Date.now() / 1000,
      port: 1,
      payload_hex: '0167011c02688a',
      temperature: i,
      humidity: 69,
      battery_percent: 90,
      RSSI: -80,
      SNR: 7.5,
      SF: 9,
      LAT: 52.37,
      LON: 4.89,
      payload_decoded: { temperature: 28.4, humidity: 69 },
      gateways: [{ id: 'gw-1', rssi: -80, snr: 7.5 }],
    },
  });
const post = (i) =>
  new Promise((resolve, reject) => {
    const body = event(i);
    const id = `msg_${i}`;
    const ts = Math.floor(Date.now() / 1000);
    const sig = createHmac('sha256', secret).update(`${id}.${ts}.${body}`).digest('base64');
    const req = http.request(
      {
        host: '127.0.0.1',
        port: PORT,
        method: 'POST',
        path: '/hook',
        agent,
        headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': `v1,${sig}` },
      },
      (res) => {
        res.resume();
        res.on('end', resolve);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
let i = 0;
const seconds = Number(process.argv[2] ?? 5);
const c0 = ticks(process.pid),
  s0 = ticks(sink.pid),
  t0 = Date.now();
// Closed loop, 8 sockets: as many as the two processes can carry.
await Promise.all(
  Array.from({ length: 8 }, async () => {
    while (Date.now() - t0 < seconds * 1000) await post(i++);
  }),
);
const elapsed = (Date.now() - t0) / 1000;
const hz = 100;
const client = (ticks(process.pid) - c0) / hz,
  server = (ticks(sink.pid) - s0) / hz;
console.log(
  JSON.stringify({
    events: i,
    per_second: Math.round(i / elapsed),
    client_cpu_s: client,
    sink_cpu_s: server,
    cores_used: +((client + server) / elapsed).toFixed(3),
    us_per_event: Math.round(((client + server) / i) * 1e6),
  }),
);
sink.kill();
agent.destroy();
