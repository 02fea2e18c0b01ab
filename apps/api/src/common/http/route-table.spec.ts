import express, { type Express, type RequestHandler } from 'express';
import request from 'supertest';
import { RouteTable } from './route-table';

/** Routes registered in this order, as Nest would register a controller's: a literal path after a parameter one included. */
const ROUTES: [verb: 'get' | 'post' | 'delete' | 'head' | 'all', path: string][] = [
  ['get', '/user'],
  ['get', '/user/device'],
  ['post', '/user/device/:eui'],
  ['post', '/user/device/import'],
  ['get', '/user/device/meta/:eui'],
  ['delete', '/user/device/meta/:eui'],
  ['get', '/user/device/image/:eui/:image_hash/thumb'],
  ['head', '/user/probe'],
  ['get', '/user/probe'],
  ['all', '/anything/:kind'],
  ['get', '/files/*path'],
  ['get', '/'],
];

/** Each handler answers with its route and the parameters it was given. */
const answer =
  (verb: string, path: string): RequestHandler =>
  (req, res) => {
    res.json({ route: `${verb} ${path}`, params: req.params, template: (req.route as { path?: string } | undefined)?.path });
  };

/** The same routes on Express's own router, and through a RouteTable mounted as the adapter mounts it. */
function apps(): { router: Express; table: Express } {
  const router = express();
  const table = express();
  const routes = new RouteTable();
  table.use(routes.middleware);
  for (const [verb, path] of ROUTES) {
    router[verb](path, answer(verb, path));
    routes.add(verb, path, answer(verb, path));
  }
  for (const app of [router, table]) {
    // What no route takes, and errors, as Nest's handlers would see them.
    app.use((_req, res) => void res.status(404).json({ route: null }));
    app.use(
      ((error, _req, res, _next) =>
        void res.status((error as { status?: number }).status ?? 500).json({ error: (error as Error).message })) as express.ErrorRequestHandler,
    );
  }
  return { router, table };
}

const REQUESTS: [method: string, path: string][] = [
  ['GET', '/user'],
  ['GET', '/USER'],
  ['GET', '/user/'],
  ['GET', '/user//'],
  ['GET', '//user'],
  ['GET', '/user/device?limit=3'],
  ['GET', '/User/Device/'],
  ['POST', '/user/device/70B3D57ED0000A01'],
  ['POST', '/user/device/import'],
  ['GET', '/user/device/meta/70B3D57ED0000A01'],
  ['GET', '/user/device/meta/a%20b'],
  ['GET', '/user/device/meta/%E0%A4%A'],
  ['GET', '/user/device/meta/a%2Fb'],
  ['DELETE', '/user/device/meta/x'],
  ['PUT', '/user/device/meta/x'],
  ['HEAD', '/user/device/meta/x'],
  ['HEAD', '/user/probe'],
  ['GET', '/user/device/meta'],
  ['GET', '/user/device/meta/x/y'],
  ['GET', '/user/device/image/E/abc/thumb'],
  ['GET', '/user/device/image/E/abc/THUMB'],
  ['PATCH', '/anything/else'],
  ['GET', '/files/a/b/c.txt'],
  ['GET', '/files'],
  ['GET', '/'],
  ['GET', '/nowhere'],
  ['OPTIONS', '/user'],
];

describe('RouteTable', () => {
  const { router, table } = apps();

  it.each(REQUESTS)('answers %s %s as Express’s router does', async (method, path) => {
    const send = (app: Express) => request(app)[method.toLowerCase() as 'get'](path);
    const [expected, actual] = await Promise.all([send(router), send(table)]);
    expect({ status: actual.status, body: actual.body as unknown }).toEqual({ status: expected.status, body: expected.body as unknown });
  });

  it('finds a route among many by the request’s segments, not by trying each in turn', () => {
    const routes = new RouteTable();
    const tried: string[] = [];
    for (let i = 0; i < 200; i++) {
      const path = `/r${i}/item/:id`;
      routes.add('get', path, () => undefined);
      // The matcher of each route, spied on: only the routes with the request's first segment and length are tried.
      const added = (routes as unknown as { byKey: Map<string, { matches: (p: string) => unknown }[]> }).byKey.get(`3/r${i}`)![0]!;
      const matches = added.matches;
      added.matches = (p: string) => (tried.push(path), matches(p));
    }
    const next = jest.fn();
    const req = { method: 'GET', path: '/r199/item/7', params: {} } as unknown as Parameters<RouteTable['middleware']>[0];
    routes.middleware(req, {} as Parameters<RouteTable['middleware']>[1], next);
    expect(tried).toEqual(['/r199/item/:id']);
    expect(req.params).toEqual({ id: '7' });
    expect(next).not.toHaveBeenCalled();
  });
});
