// Figure 8: the web console's first load on localhost — a signed-in browser opening /console/
// until the overview shows the account's figures (HTML, JavaScript, fonts, the first API calls),
// in Debian's Chromium with an empty cache — against the same HTML, scripts and API calls fetched
// by Node one after another (the bytes and the service's answers without a browser's parsing and
// rendering). Also the JavaScript the first page loads, gzipped (budget 350 kB).
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { accountWithToken } from '../lib/api-client.mjs';
import { freshDatabase } from '../lib/database.mjs';
import { row } from '../lib/report.mjs';
import { startApi } from '../lib/service.mjs';
import { median } from '../lib/stats.mjs';

const require = createRequire(import.meta.url);
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function run(ctx) {
  const { chromium } = require('playwright-core');
  const db = await freshDatabase(ctx);
  const api = await startApi(ctx, db, { label: 'console' });
  const account = await accountWithToken(api.url);
  const [name, value] = account.cookie.split('=');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ARGS });
  const loads = [];
  const baselines = [];
  let scripts = new Map();
  let apiCalls = [];
  try {
    for (let i = 0; i < ctx.runs + 1; i++) {
      // A new context each time: an empty cache, as a first visit.
      const context = await browser.newContext();
      await context.addCookies([{ name, value, url: api.url }]);
      const page = await context.newPage();
      const seen = new Map();
      const calls = [];
      page.on('response', async (res) => {
        const url = new URL(res.url());
        if (url.pathname.endsWith('.js')) seen.set(url.pathname, await res.body().catch(() => Buffer.alloc(0)));
        else if (!url.pathname.startsWith('/console/') && res.request().resourceType() === 'fetch') calls.push(url.pathname + url.search);
      });
      const started = performance.now();
      await page.goto(`${api.url}/console/`);
      await page.locator('.figure-value', { hasText: /^\d+$/ }).first().waitFor({ timeout: 30_000 });
      const ms = performance.now() - started;
      await context.close();
      if (i === 0) {
        // The first run warms the service (and the OS's file cache) and records what a load fetches.
        scripts = seen;
        apiCalls = calls;
        continue;
      }
      loads.push(ms);
    }
    // The same requests from Node, one after another.
    const index = await (await fetch(`${api.url}/console/`)).text();
    for (let i = 0; i < ctx.runs; i++) {
      const started = performance.now();
      await (await fetch(`${api.url}/console/`)).text();
      for (const path of scripts.keys()) await (await fetch(`${api.url}${path}`)).arrayBuffer();
      for (const call of apiCalls) await (await fetch(`${api.url}${call}`, { headers: { Cookie: account.cookie } })).text();
      baselines.push(performance.now() - started);
    }
    if (!index.includes('<div id="root">')) throw new Error('/console/ did not answer the console');
  } finally {
    await browser.close();
    await api.stop();
    await db.drop();
  }
  const gzipped = [...scripts.values()].reduce((n, body) => n + gzipSync(body).length, 0) / 1024;
  return [
    row({
      figure: '8 console',
      measure: `first load of /console/ (signed in, empty cache) until the overview's figures show: median of ${ctx.runs}`,
      value: median(loads),
      unit: 'ms',
      baseline: median(baselines),
      baselineLabel: 'the same HTML, scripts and API calls fetched by Node',
      note: `${scripts.size} scripts, API calls: ${apiCalls.join(', ')}`,
    }),
    row({
      figure: '8 console',
      measure: 'JavaScript of the first page, gzipped',
      value: gzipped,
      unit: 'kB',
      goal: '≤ 350 kB',
      met: gzipped <= 350,
      note: [...scripts.keys()].map((p) => p.split('/').pop()).join(', '),
    }),
  ];
}
