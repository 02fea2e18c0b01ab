import { Controller, Get, Post, UseGuards, UseInterceptors } from '@nestjs/common';
import { SkipThrottle } from '@nestjs/throttler';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthPrincipal } from '../auth/auth-principal';
import { AdminOnly, CurrentAccount, MasterOnly, Public } from '../auth/auth.decorators';
import { AuthGuard } from '../auth/auth.guard';
import type { Authenticator } from '../auth/authenticator.service';
import type { AccountRateLimit } from '../throttling/account-rate-limit';
import { ApiThrottlerGuard } from '../throttling/api-throttler.guard';
import { ApiExceptionFilter } from './api-exception.filter';
import { ApiException } from './api.exception';
import { EnvelopeInterceptor } from './envelope.interceptor';
import { hotLane, type HotLaneParts, type HotRoute } from './hot-lane';
import { OriginGuard } from './origin.guard';

@Controller('hot')
class HotController {
  @Get()
  list(@CurrentAccount() me: AuthPrincipal) {
    return [me.accountId];
  }
  @Get('fails')
  fails(@CurrentAccount() _me: AuthPrincipal): unknown {
    throw new Error('the database went away');
  }
  @Get('refuses')
  refuses(@CurrentAccount() _me: AuthPrincipal): unknown {
    throw ApiException.of('NOT_FOUND', 'no such thing');
  }
  @Post()
  post() {}
  @Get('guarded')
  @UseGuards(AuthGuard)
  guarded() {}
  @Get('intercepted')
  @UseInterceptors(EnvelopeInterceptor)
  intercepted() {}
  @Get('master')
  @MasterOnly()
  master() {}
  @Get('admin')
  @AdminOnly()
  admin() {}
  @Get('public')
  @Public()
  open() {}
  @Get('unthrottled')
  @SkipThrottle()
  unthrottled() {}
}

const route = (handler: keyof HotController & string): HotRoute<HotController> => ({
  controller: HotController,
  handler,
  call: (c, caller) => (c[handler] as (me: AuthPrincipal) => unknown)(caller),
});
const caller = { accountId: 7, rights: null } as AuthPrincipal;

describe('hot lane', () => {
  const toExpress: string[] = [];
  const counted: number[] = [];
  const parts: HotLaneParts = {
    express: (req: IncomingMessage, res: ServerResponse) => {
      toExpress.push(req.url!);
      res.end('express');
    },
    middlewares: [(_req, res, next) => (res.setHeader('X-First', '1'), next())],
    guards: [AuthGuard, OriginGuard, ApiThrottlerGuard],
    authenticator: {
      authenticate: async ({ token }: { token: string }) => {
        if (token !== 'good') throw ApiException.of('INVALID_TOKEN', 'the API token is not valid', 'Authorization');
        return { principal: caller, renewedCookie: null };
      },
    } as unknown as Authenticator,
    rateLimit: { count: async (accountId: number) => void counted.push(accountId) } as unknown as AccountRateLimit,
    filter: new ApiExceptionFilter(),
    etag: (text) => `"${text.length}"`,
  };
  const build = (routes: HotRoute[], guards = parts.guards) => hotLane(routes, () => new HotController(), { ...parts, guards });

  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer(build([route('list'), route('fails'), route('refuses')]));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('answers its route in the envelope, through the middlewares, counting the caller', async () => {
    const res = await fetch(`${base}/hot`, { headers: { Authorization: 'Bearer good' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-first')).toBe('1');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const text = await res.text();
    expect(res.headers.get('etag')).toBe(`"${text.length}"`);
    expect(JSON.parse(text)).toMatchObject({ success: true, data: [7], errors: [] });
    expect(counted).toContain(7);
  });

  it('answers a failure in the error envelope, a refusal in its own words', async () => {
    const failed = await fetch(`${base}/hot/fails`, { headers: { Authorization: 'good' } });
    expect(failed.status).toBe(500);
    expect(await failed.json()).toMatchObject({ success: false, errors: [{ code: 'INTERNAL' }] });
    const refused = await fetch(`${base}/hot/refuses`, { headers: { token: 'good' } });
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({ success: false, errors: [{ code: 'NOT_FOUND' }] });
    const bad = await fetch(`${base}/hot`, { headers: { Authorization: 'Bearer bad' } });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ errors: [{ code: 'INVALID_TOKEN', field: 'Authorization' }] });
  });

  it('leaves to Express every request but a plain token read of its routes', async () => {
    toExpress.length = 0;
    const sent: [string, RequestInit][] = [
      ['/hot', {}],
      ['/hot', { headers: { Cookie: 'sid=1' } }],
      ['/hot', { headers: { Authorization: ' ', token: '' } }],
      ['/hot?x=1', { headers: { Authorization: 'good' } }],
      ['/hot/', { headers: { Authorization: 'good' } }],
      ['/other', { headers: { Authorization: 'good' } }],
      ['/hot', { headers: { Authorization: 'good', 'If-None-Match': '"1"' } }],
      ['/hot', { headers: { Authorization: 'good', 'Content-Type': 'application/json' } }],
      ['/hot', { method: 'POST', headers: { Authorization: 'good' }, body: '{}' }],
      ['/hot', { method: 'HEAD', headers: { Authorization: 'good' } }],
    ];
    for (const [path, init] of sent) await (await fetch(`${base}${path}`, init)).text();
    expect(toExpress).toEqual(sent.map(([path]) => path));
  });

  it.each([
    ['post', 'not a GET route'],
    ['guarded', 'guards'],
    ['intercepted', 'interceptors'],
    ['master', 'dts:master-only'],
    ['admin', 'not a route for any authenticated account'],
    ['open', 'not a route for any authenticated account'],
    ['unthrottled', 'limits of its own'],
  ] as const)('refuses to serve %s (%s)', (handler, reason) => {
    expect(() => build([route(handler)])).toThrow(new RegExp(reason));
  });

  it('refuses to start beside a global guard whose decision it does not make', () => {
    class NewGuard {}
    expect(() => build([route('list')], [...parts.guards, NewGuard as never])).toThrow(/NewGuard/);
  });
});
