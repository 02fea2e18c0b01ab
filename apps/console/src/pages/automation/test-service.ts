import { type ErrorCode, errorEnvelope, ERROR_STATUS, successEnvelope } from '@dts/domain';

/** A request the form made, as the service saw it. */
export interface Call {
  method: string;
  path: string;
  body: Record<string, unknown> | undefined;
}

const json = (status: number, envelope: unknown) => new Response(JSON.stringify(envelope), { status, headers: { 'Content-Type': 'application/json' } });
export const ok = (data: unknown, status = 200) => json(status, successEnvelope(data));
export const fail = (code: ErrorCode, message: string, field?: string) =>
  json(ERROR_STATUS[code], errorEnvelope([{ code, message, ...(field ? { field } : {}) }]));

/**
 * A small service for component tests: answers by method and path with real envelopes, records
 * every call. `answer` returns a Response, or undefined for 404 ROUTE_NOT_FOUND.
 */
export class FakeService {
  calls: Call[] = [];
  constructor(public answer: (call: Call) => Response | undefined) {}

  readonly fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(String(input));
    const call = {
      method: init.method ?? 'GET',
      path: url.pathname,
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined,
    };
    this.calls.push(call);
    return this.answer(call) ?? fail('ROUTE_NOT_FOUND', 'No such route.');
  };

  writes(): Call[] {
    return this.calls.filter((c) => c.method !== 'GET');
  }
}
