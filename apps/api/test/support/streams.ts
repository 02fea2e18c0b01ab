import { get, type IncomingMessage } from 'node:http';

export interface OpenStream {
  status: number;
  headers: IncomingMessage['headers'];
  /** Everything received so far. */
  text: () => string;
  /** Resolves when the server ends or cuts the stream. */
  closed: Promise<void>;
  isClosed: () => boolean;
  close: () => void;
}

/** Opens a GET as a raw stream (a live feed, an export) and keeps reading it. */
export function openStream(url: string, headers: Record<string, string>): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const req = get(url, { headers }, (res) => {
      let text = '';
      let closed = false;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      const done = new Promise<void>((r) => {
        const end = () => {
          closed = true;
          r();
        };
        res.on('end', end);
        res.on('close', end);
        res.on('error', end);
      });
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        text: () => text,
        closed: done,
        isClosed: () => closed,
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
  });
}

/** Resolves when `p` does, or rejects after `ms` naming what did not happen. */
export function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms))),
  ]);
}
