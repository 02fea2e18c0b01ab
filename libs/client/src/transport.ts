import type { ApiErrorEntry, Envelope } from '@dts/domain';
import { ApiError } from './api-error';
import { type ClientRoute, fillPath, type PathParams } from './routes';

export interface DeviceTelemetryClientOptions {
  /** Where the service answers, e.g. `http://localhost:3000` (a path prefix is kept). */
  baseUrl: string;
  /** An API token, sent as `Authorization: Bearer …`. It wins over a cookie (docs/api.md §3). */
  token?: string;
  /** A session cookie (`name=value`). `auth.login()` sets it on this client; `auth.logout()` drops it. */
  cookie?: string;
  /** The platform ingest secret (`X-Ingest-Secret`): used instead of the token on /ingest/* routes. */
  ingestSecret?: string;
  /** Another fetch (tests, proxies, retries). Defaults to the global fetch of Node 20 / browsers. */
  fetch?: typeof fetch;
  /** Sent with every request (e.g. X-Request-Id). */
  headers?: Record<string, string>;
  /**
   * The organisation a session acts in (its name or id), sent as `X-Organisation` on every request
   * but the personal ones (docs/api.md §20); a key made in an organisation needs none.
   */
  organisation?: string;
}

export type QueryValue = string | number | boolean | readonly (string | number)[] | null | undefined;

export interface RequestOptions<P extends string> {
  params?: PathParams<P>;
  query?: Record<string, QueryValue>;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as multipart/form-data instead of a JSON body. */
  form?: FormData;
  /** Sent as text of this media type instead of a JSON body (CSV). */
  text?: { type: string; body: string };
  /** Which credentials the route takes: an account's (default), ingest credentials, or none. */
  credentials?: 'account' | 'ingest' | 'none';
  /** Extra headers of this request. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * Told how much of a multipart body has gone out. Browsers only: fetch cannot report an upload's
   * progress, so with this and a form the request goes through XMLHttpRequest where there is one
   * (elsewhere it is ignored).
   */
  onUploadProgress?: (sent: number, total: number) => void;
}

/** A successful envelope with its HTTP status and headers. */
export interface ApiResponse<T, M = unknown> {
  status: number;
  data: T;
  meta: M;
  messages: string[];
  headers: Headers;
}

const isEnvelope = (v: unknown): v is Envelope =>
  typeof v === 'object' && v !== null && 'success' in v && 'errors' in v && 'data' in v && Array.isArray((v as Envelope).errors);

/** Holds the base URL and credentials, sends requests and unwraps envelopes. */
export class Transport {
  private readonly base: string;
  private readonly fetchImpl: typeof fetch;
  private readonly cookies = new Map<string, string>();
  /** The organisation requests act in (X-Organisation); undefined: the person's own account. */
  organisation: string | undefined;

  constructor(readonly options: DeviceTelemetryClientOptions) {
    this.organisation = options.organisation;
    if (!options.baseUrl) throw new TypeError('DeviceTelemetryClient: baseUrl is required');
    this.base = options.baseUrl.replace(/\/+$/, '');
    const f = options.fetch ?? globalThis.fetch;
    if (typeof f !== 'function') throw new TypeError('DeviceTelemetryClient: no fetch available (Node 20+, or pass options.fetch)');
    // A browser's fetch called as a method of another object throws "Illegal invocation".
    this.fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
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
    if (this.organisation !== undefined && credentials !== 'none') headers['X-Organisation'] = this.organisation;
    let body: string | FormData | undefined;
    if (options.form) body = options.form;
    else if (options.text) {
      headers['Content-Type'] = options.text.type;
      body = options.text.body;
    } else if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const url = this.url(route, options);
    const res =
      options.form && options.onUploadProgress && browserXhr() && !this.options.fetch
        ? await sendWithProgress(route.method, url, headers, options.form, options.onUploadProgress, options.signal)
        : await this.fetchImpl(url, { method: route.method, headers, body, redirect: 'manual', signal: options.signal });
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
      const [pair = '', ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => {
        const [k = '', v = ''] = a.split('=').map((s) => s.trim());
        if (k.toLowerCase() === 'max-age') return Number(v) <= 0;
        if (k.toLowerCase() === 'expires') return Date.parse(v) <= Date.now();
        return false;
      });
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}

/** What of a browser's XMLHttpRequest an upload uses (the client compiles without the DOM's types). */
interface Xhr {
  status: number;
  responseText: string;
  upload: { onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null };
  onload: (() => void) | null;
  onerror: (() => void) | null;
  onabort: (() => void) | null;
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  getAllResponseHeaders(): string;
  send(body: FormData): void;
  abort(): void;
}

const browserXhr = () => (globalThis as { XMLHttpRequest?: new () => Xhr }).XMLHttpRequest;

/** Statuses whose Response may not carry a body. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * An upload through XMLHttpRequest (the one browser API that reports an upload's progress), its
 * answer as a fetch Response. Fails as fetch does: a TypeError when the network fails, an
 * AbortError when the signal aborts.
 */
function sendWithProgress(
  method: string,
  url: string,
  headers: Record<string, string>,
  form: FormData,
  onProgress: (sent: number, total: number) => void,
  signal: AbortSignal | undefined,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const Request = browserXhr();
    if (!Request) return reject(new TypeError('no XMLHttpRequest here'));
    const xhr = new Request();
    xhr.open(method, url);
    // The browser sets Cookie and the multipart boundary itself.
    for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() !== 'cookie') xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : 0);
    xhr.onload = () => {
      const answer = new Headers();
      for (const line of xhr
        .getAllResponseHeaders()
        .trim()
        .split(/[\r\n]+/)) {
        const colon = line.indexOf(':');
        if (colon > 0) answer.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
      }
      resolve(new Response(NULL_BODY.has(xhr.status) ? null : (xhr.responseText as string), { status: xhr.status, headers: answer }));
    };
    xhr.onerror = () => reject(new TypeError('network error'));
    xhr.onabort = () => reject(new DOMException('The upload was aborted.', 'AbortError'));
    if (signal) {
      if (signal.aborted) return reject(new DOMException('The upload was aborted.', 'AbortError'));
      signal.addEventListener('abort', () => xhr.abort(), { once: true });
    }
    xhr.send(form);
  });
}
