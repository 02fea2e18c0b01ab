import { spawn } from 'node:child_process';

/**
 * Polls a URL every `everyMs` from a process of its own (so that the test's own work — building
 * megabyte bodies, reading streams — never delays a probe) and reports every answer's time. A
 * probe still unanswered when the probe stops counts with the time it has waited so far.
 */
const SCRIPT = `
const http = require('node:http');
const [url, every] = [process.argv[1], Number(process.argv[2])];
// One kept-alive connection: what is measured is how soon the event loop answers. A probe that
// opened new connections measured the accept path too: during the try-route and slow-reader
// attacks, new connections waited 0.25-1 s for their answer while the api's event loop was idle
// (its CPU profile had no busy stretch over 210 ms); docs/reliability.md keeps that open.
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const times = [];
const open = new Set();
const once = () => {
  const started = process.hrtime.bigint();
  open.add(started);
  const done = (failed) => {
    if (!open.delete(started)) return;
    times.push(failed ? -1 : Number(process.hrtime.bigint() - started) / 1e6);
  };
  const req = http.get(url, { agent }, (res) => { res.resume(); res.on('end', () => done(res.statusCode !== 200)); });
  req.on('error', () => done(true));
};
const timer = setInterval(once, every);
process.stdin.on('data', () => {
  clearInterval(timer);
  const now = process.hrtime.bigint();
  for (const started of open) times.push(Number(now - started) / 1e6);
  process.stdout.write(JSON.stringify(times));
  process.exit(0);
});
`;

export interface ProbeResult {
  n: number;
  failed: number;
  p50: number;
  p99: number;
  max: number;
}

export function startProbe(url: string, everyMs = 50): { stop: () => Promise<ProbeResult> } {
  const child = spawn(process.execPath, ['-e', SCRIPT, url, String(everyMs)], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return {
    async stop() {
      child.stdin.write('stop\n');
      await exited;
      const all = JSON.parse(out) as number[];
      const times = all.filter((t) => t >= 0).sort((a, b) => a - b);
      const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
      return { n: all.length, failed: all.length - times.length, p50: at(0.5), p99: at(0.99), max: times[times.length - 1] ?? 0 };
    },
  };
}
