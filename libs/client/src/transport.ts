import type { ApiErrorEntry, Envelope } from '@dts/domain';
import { ApiError } from './api-error';
import { type ClientRoute, fillPath, type PathParams } from './routes';

export interface DeviceTelemetryClientOptions {
  /** Where the service answers, e.g. `http://localhost:3000` (a path prefix is kept). */
  baseUrl: string;
  /** An API token, sent as `Authorization: Bearer …`. It wins over a cookie (CONTRACT §3). */
  token?: string;
  /** A session cookie (`name=value`). `auth.login()` sets it on this client; `auth.logout()` drops it. */
  cookie?: string;
  /** The platform ingest secret (`X-Ingest-Secret`): used instead of the token on /ingest/* routes. */
  ingestSecret?: string;
  /** Another fetch (tests, proxies, retries). Defaults to the global fetch of Node 20 / browsers. */
  fetch?: typeof fetch;
  /** Sent with every request (e.g. X-Request-Id). */
  headers?: Record<string, string>;
}

export type QueryValue = string | number | boolean | readonly (string | number)[] | null | undefined;

export interface RequestOptions<P extends string> {
  params?: PathParams<P>;
  query?: Record<string, QueryValue>;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as multipart/form-data instead of a JSON body. */
  form?: FormData;
  /** Which credentials the route takes: an account's (default), ingest credentials, or none. */
  credentials?: 'account' | 'ingest' | 'none';
  /** Extra headers of this request. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** A successful envelope with its HTTP status and headers. */
export interface ApiResponse<T, M = unknown> {
  status: number;
  data: T;
  meta: M;
  messages: string[];
  headers: Headers;
}

const isEnvelope = (v: unknown): v is Envelope => typeof v === 'object' && v !== null && 'success' in v && 'errors' in v && 'data' in v && Array.isArray((v as Envelope).errors);

/** Holds the base URL and credentials, sends requests and unwraps envelopes. */
export class Transport {
  private readonly base: string;
  private readonly fetchImpl: typeof fetch;
  private readonly cookies = new Map<string, string>();

  constructor(readonly options: DeviceTelemetryClientOptions) {
    if (!options.baseUrl) throw new TypeError('DeviceTelemetryClient: baseUrl is required');
    this.base = options.baseUrl.replace(/\/+$/, '');
    const f = options.fetch ?? globalThis.fetch;
    if (typeof f !== 'function') throw new TypeError('DeviceTelemetryClient: no fetch available (Node 20+, or pass options.fetch)');
    this.fetchImpl = f;
    if (options.cookie) this.setCookie(options.cookie);
  }

  /** The session cookie header the client sends, or undefined without a session. */
  get cookie(): string | undefined {
    return this.cookies.size ? [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') : undefined;
  }

  url<P extends string>(route: ClientRoute<P>, options: Pick<RequestOptions<P>, 'params' | 'query'> = {}): string {
    const path = fillPath(route.path, (options.params ?? {}) as PathParams<P>);
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(options.query ?? {})) {
      if (v === undefined || v === null) continue;
      search.append(k, Array.isArray(v) ? v.join(',') : String(v));
    }
    const qs = search.toString();
    return `${this.base}${path}${qs ? `?${qs}` : ''}`;
  }

  /** Sends the request; resolves with the raw response whatever its status. */
  async send<P extends string>(route: ClientRoute<P>, options: RequestOptions<P> = {}, accept = 'application/json'): Promise<Response> {
    const headers: Record<string, string> = { Accept: accept, ...this.options.headers, ...options.headers };
    const credentials = options.credentials ?? 'account';
    if (credentials === 'ingest' && this.options.ingestSecret) headers['X-Ingest-Secret'] = this.options.ingestSecret;
    else if (credentials !== 'none' && this.options.token) headers.Authorization = `Bearer ${this.options.token}`;
    const cookie = this.cookie;
    if (cookie && credentials !== 'none') headers.Cookie = cookie;
    let body: string | FormData | undefined;
    if (options.form) body = options.form;
    else if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const res = await this.fetchImpl(this.url(route, options), { method: route.method, headers, body, redirect: 'manual', signal: options.signal });
    this.remember(res.headers);
    return res;
  }

  /** Sends the request and unwraps the envelope: the success's data, or an ApiError. */
  async request<T, M = unknown, P extends string = string>(route: ClientRoute<P>, options: RequestOptions<P> = {}): Promise<ApiResponse<T, M>> {
    const res = await this.send(route, options);
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    const who = { method: route.method, path: route.path };
    if (!isEnvelope(parsed) || !res.ok || !parsed.success) {
      const errors: ApiErrorEntry[] = isEnvelope(parsed) ? parsed.errors : [];
      const retry = Number(res.headers.get('retry-after'));
      throw new ApiError(res.status, errors, who, res.headers.get('x-request-id'), Number.isFinite(retry) && res.headers.has('retry-after') ? retry : null);
    }
    return { status: res.status, data: parsed.data as T, meta: parsed.meta as M, messages: parsed.messages, headers: res.headers };
  }

  /** For the answers that are not envelopes when they succeed (metrics, exports, files); failures still are. */
  async raw<P extends string>(route: ClientRoute<P>, options: RequestOptions<P> = {}, accept = '*/*'): Promise<Response> {
    const res = await this.send(route, options, accept);
    if (res.ok) return res;
    let parsed: unknown;
    try {
      parsed = JSON.parse(await res.text());
    } catch {
      parsed = undefined;
    }
    throw new ApiError(res.status, isEnvelope(parsed) ? parsed.errors : [], { method: route.method, path: route.path }, res.headers.get('x-request-id'));
  }

  async data<T, P extends string = string>(route: ClientRoute<P>, options: RequestOptions<P> = {}): Promise<T> {
    return (await this.request<T, unknown, P>(route, options)).data;
  }

  setCookie(header: string): void {
    for (const part of header.split(';')) {
      const eq = part.indexOf('=');
      if (eq > 0) this.cookies.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
    }
  }

  clearCookies(): void {
    this.cookies.clear();
  }

  /** A minimal cookie jar for the one origin: keeps what the service sets, drops what it expires. */
  private remember(headers: Headers): void {
    const list = typeof headers.getSetCookie === 'function' ? headers.getSetCookie() : [];
    for (const line of list) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => {
        const [k, v = ''] = a.split('=').map((s) => s.trim());
        if (k.toLowerCase() === 'max-age') return Number(v) <= 0;
        if (k.toLowerCase() === 'expires') return Date.parse(v) <= Date.now();
        return false;
      });
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}
