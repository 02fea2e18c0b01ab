import { ApiError } from './api-error';
import { DeviceTelemetryClient } from './client';
import { CLIENT_ROUTES, fillPath } from './routes';
import { readSse } from './sse';

const envelope = (status: number, data: unknown, errors: unknown[] = [], headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ errors, debug: [], meta: [], messages: [], data, success: errors.length === 0 }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });

function recording(answer: (url: string, init: RequestInit) => Response) {
  const calls: { url: string; method: string; headers: Record<string, string>; body: unknown }[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    calls.push({ url, method: String(init.method), headers: init.headers as Record<string, string>, body: init.body });
    return answer(url, init);
  }) as typeof globalThis.fetch;
  return { calls, fetch };
}

function stream(...chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(encoder.encode(c));
      controller.close();
    },
  });
}

describe('DeviceTelemetryClient (without a server)', () => {
  it('fills path templates, encoding the values, and refuses a missing parameter', () => {
    expect(fillPath('/user/device/{eui}/{uid}', { eui: 'a b', uid: 3 })).toBe('/user/device/a%20b/3');
    expect(() => fillPath('/user/device/{eui}', {} as { eui: string })).toThrow('missing path parameter eui');
    expect(CLIENT_ROUTES.every((r) => r.path.startsWith('/'))).toBe(true);
  });

  it('sends the token, JSON bodies and queries (lists comma-joined, undefined left out) and unwraps data', async () => {
    const { calls, fetch } = recording(() => envelope(200, [{ uid: 1 }]));
    const client = new DeviceTelemetryClient({ baseUrl: 'http://svc.invalid/api/', token: 'tok', fetch });
    expect(await client.uplinks.data('EUI', { limit: 5, from: undefined })).toEqual([{ uid: 1 }]);
    await client.uplinks.dataFiltered('EUI', ['LAT', 'LON']);
    await client.fences.create({ name: 'F', geometry: { type: 'Polygon', coordinates: [] } });
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'GET http://svc.invalid/api/user/device/data/EUI?limit=5',
      'GET http://svc.invalid/api/user/device/data/EUI?filter=LAT%2CLON',
      'POST http://svc.invalid/api/user/fence',
    ]);
    expect(calls[2]!.headers).toMatchObject({ Authorization: 'Bearer tok', 'Content-Type': 'application/json' });
    expect(JSON.parse(String(calls[2]!.body))).toEqual({ name: 'F', geometry: { type: 'Polygon', coordinates: [] } });
  });

  it('sends the ingest secret instead of the token on ingest routes only', async () => {
    const { calls, fetch } = recording(() => envelope(202, { accepted: 0, duplicates: 0, rejected: [] }));
    const client = new DeviceTelemetryClient({ baseUrl: 'http://svc.invalid', token: 'tok', ingestSecret: 'sec', fetch });
    await client.ingest.rest([]);
    await client.ingest.chirpstack({}, 'ack');
    expect(calls[0]!.headers).toMatchObject({ 'X-Ingest-Secret': 'sec' });
    expect(calls[0]!.headers.Authorization).toBeUndefined();
    expect(calls[1]!.url).toBe('http://svc.invalid/ingest/chirpstack?event=ack');
  });

  it('keeps the session cookie the service sets and drops it when the service expires it', async () => {
    let answer = envelope(200, { authenticated: true }, [], { 'set-cookie': 'dts_session=abc; Path=/; HttpOnly; SameSite=Lax' });
    const { calls, fetch } = recording(() => answer);
    const client = new DeviceTelemetryClient({ baseUrl: 'http://svc.invalid', fetch });
    await client.auth.login({ username: 'u', password: 'p' });
    expect(client.cookie).toBe('dts_session=abc');
    answer = envelope(200, { authenticated: false }, [], { 'set-cookie': 'dts_session=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT' });
    await client.user.state();
    expect(calls[1]!.headers.Cookie).toBe('dts_session=abc');
    expect(client.cookie).toBeUndefined();
  });

  it('throws ApiError with every entry, the first code and field, the request id and Retry-After', async () => {
    const errors = [
      { code: 'VALIDATION_FAILED', message: 'name is bad', field: 'name' },
      { code: 'VALIDATION_FAILED', message: 'geometry is bad', field: 'geometry' },
    ];
    const { fetch } = recording(() => envelope(400, null, errors, { 'x-request-id': 'req-1', 'retry-after': '7' }));
    const client = new DeviceTelemetryClient({ baseUrl: 'http://svc.invalid', fetch });
    const error = (await client.fences.list().catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect({
      status: error.status,
      code: error.code,
      field: error.field,
      errors: error.errors,
      requestId: error.requestId,
      retryAfter: error.retryAfter,
    }).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
      field: 'name',
      errors,
      requestId: 'req-1',
      retryAfter: 7,
    });
    expect(error.has('VALIDATION_FAILED', 'geometry')).toBe(true);
    expect(error.message).toBe('GET /user/fence: 400 VALIDATION_FAILED (name): name is bad');
  });

  it('throws ApiError without a code for an answer that is not an envelope', async () => {
    const { fetch } = recording(() => new Response('<html>Bad Gateway</html>', { status: 502 }));
    const error = (await new DeviceTelemetryClient({ baseUrl: 'http://svc.invalid', fetch }).system.version().catch((e: unknown) => e)) as ApiError;
    expect({ isApiError: error instanceof ApiError, status: error.status, code: error.code, errors: error.errors }).toEqual({
      isApiError: true,
      status: 502,
      code: undefined,
      errors: [],
    });
  });
});

describe('readSse', () => {
  it('parses events split across chunks, skipping comments, keeping the last id', async () => {
    const events = [];
    for await (const e of readSse(
      stream('retry: 3000\n: live feed\n\nid: 7\nevent: upl', 'ink\ndata: {"a":1}\n\n: heartbeat\n\nevent: command\ndata: {"b"\ndata: :2}\r\n\r\n'),
    ))
      events.push(e);
    expect(events).toEqual([
      { event: 'uplink', data: '{"a":1}', id: '7' },
      { event: 'command', data: '{"b"\n:2}', id: '7' },
    ]);
  });
});
