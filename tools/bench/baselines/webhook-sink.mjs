// The receiver of the integrations figure: a bare node:http server that answers every POST 200 and
// keeps, per request, when it arrived (wall clock, ms with sub-ms precision) and the uplink's
// temperature, which the bench uses as the uplink's sequence number. GET /stats gives the count,
// GET /arrivals?since=N the arrivals from index N on, POST /reset forgets them.
import http from 'node:http';

let arrivals = [];
const now = () => performance.timeOrigin + performance.now();

http
  .createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/stats')
      return res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ count: arrivals.length }));
    if (req.method === 'GET' && req.url?.startsWith('/arrivals')) {
      const since = Number(new URL(req.url, 'http://x').searchParams.get('since') ?? 0);
      return res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(arrivals.slice(since)));
    }
    if (req.method === 'POST' && req.url === '/reset') {
      arrivals = [];
      return res.writeHead(200).end();
    }
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const at = now();
      let seq = null;
      try {
        seq = JSON.parse(Buffer.concat(chunks).toString('utf8')).data?.temperature ?? null;
      } catch {
        // not an event
      }
      arrivals.push([at, seq]);
      res.writeHead(200).end('ok');
    });
  })
  .listen(Number(process.env.PORT), '127.0.0.1');
