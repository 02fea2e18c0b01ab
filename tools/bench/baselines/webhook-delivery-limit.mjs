// The limit of webhook delivery on this machine (issue 33, goal 4: the service's deliveries ≥ 80% of
// "a bare fetch loop to the same receiver"): a closed loop of `fetch` calls, as many at once as the
// service's dispatcher sends to one account (INTEGRATION_ACCOUNT_CONCURRENCY), each POSTing an event
// body signed as the service signs it (HMAC-SHA256 over `id.timestamp.body`, Standard Webhooks
// headers, a webhook-id per event) over kept-alive connections, with no database, queue or
// bookkeeping. `--client=http` runs the same loop on node:http with a keep-alive agent (the client
// the service's WebhookTransport uses), so that the figure can name the faster of the two.
//
//   node tools/bench/baselines/webhook-delivery-limit.mjs [--url=URL] [--body-file=FILE]
//        [--concurrency=4] [--seconds=5] [--client=fetch|http]
//
// Without --url it starts its own receiver (webhook-sink.mjs) and reports its CPU too. Prints one
// JSON line: events, per_second, client_cpu_ms, us_per_event (client), and the receiver's CPU when
// it started one. CPU is read from /proc (Linux).
import { spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { cpuMs } from '../lib/cpu.mjs';

// A bare number is the seconds, as the script was first called (docs/benchmarks.md).
const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    if (/^\d+$/.test(a)) return ['seconds', a];
    const [k, ...v] = a.replace(/^--/, '').split('=');
    return [k, v.join('=')];
  }),
);
const seconds = Number(args.seconds ?? 5);
const concurrency = Number(args.concurrency ?? 4);
const client = args.client ?? 'fetch';
if (client !== 'fetch' && client !== 'http') throw new Error('--client is fetch or http');

let sink = null;
let url = args.url;
if (!url) {
  const port = Number(process.env.PORT ?? 39871);
  sink = spawn(process.execPath, [fileURLToPath(new URL('./webhook-sink.mjs', import.meta.url))], {
    env: { ...process.env, PORT: String(port) },
    stdio: 'inherit',
  });
  await new Promise((r) => setTimeout(r, 800));
  url = `http://127.0.0.1:${port}/hook`;
}

// The event: the bytes of a routed event as the service stores them (the figure passes one from its
// database), or a stand-in of the same shape. Like the service, the loop sends stored bytes: no
// JSON work per event.
const body = args['body-file']
  ? readFileSync(args['body-file'], 'utf8')
  : JSON.stringify({
      type: 'uplink',
      timestamp: new Date().toISOString(),
      data: {
        eui: '70B3D57ED0000A01',
        uid: 1,
        received_unix: Date.now() / 1000,
        port: 1,
        payload_hex: '0167011c02688a',
        temperature: 21.5,
        humidity: 69,
        battery_percent: 90,
        RSSI: -80,
        SNR: 7.5,
        SF: 9,
        LAT: 52.37,
        LON: 4.89,
        payload_decoded: { temperature: 21.5, humidity: 69 },
        gateways: [{ id: 'gw-1', rssi: -80, snr: 7.5 }],
      },
    });
const key = randomBytes(32);

function headers(i) {
  const id = `evt_${i}`;
  const ts = Math.floor(Date.now() / 1000);
  const mac = createHmac('sha256', key).update(`${id}.${ts}.${body}`).digest('base64');
  return { 'Content-Type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': `v1,${mac}` };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const target = new URL(url);
const send =
  client === 'fetch'
    ? async (i) => {
        const res = await fetch(url, { method: 'POST', headers: headers(i), body });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`receiver answered ${res.status}`);
      }
    : (i) =>
        new Promise((resolve, reject) => {
          const req = http.request(target, { method: 'POST', agent, headers: { ...headers(i), 'Content-Length': String(Buffer.byteLength(body)) } }, (res) => {
            res.resume();
            res.on('end', resolve);
          });
          req.on('error', reject);
          req.end(body);
        });

// A short warm-up (connections opened, code optimised), then the measured closed loop.
let i = 0;
const loop = async (ms) => {
  const until = Date.now() + ms;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < until) await send(i++);
    }),
  );
};
await loop(Math.min(1_000, seconds * 200));
const first = i;
const c0 = cpuMs(process.pid);
const s0 = sink ? cpuMs(sink.pid) : 0;
const t0 = performance.now();
await loop(seconds * 1000);
const elapsed = (performance.now() - t0) / 1000;
const events = i - first;
const clientCpu = cpuMs(process.pid) - c0;
const sinkCpu = sink ? cpuMs(sink.pid) - s0 : null;
console.log(
  JSON.stringify({
    client,
    concurrency,
    body_bytes: Buffer.byteLength(body),
    events,
    per_second: Math.round(events / elapsed),
    client_cpu_ms: clientCpu,
    us_per_event: Math.round((clientCpu / events) * 1000),
    ...(sink ? { sink_cpu_ms: sinkCpu, sink_us_per_event: Math.round((sinkCpu / events) * 1000) } : {}),
  }),
);
sink?.kill();
agent.destroy();
