/**
 * A JSON answer as Express's `res.json` writes it (type with charset, length, and an ETag when a
 * function for it is given), on Node's own response: the error envelope, and the routes that
 * write their own response (`@Res()`).
 */
/** Node's response or Express's (whose `req` the two type packages declare differently). */
export interface JsonResponse {
  statusCode: number;
  setHeader(name: string, value: number | string | readonly string[]): unknown;
  end(text: string): unknown;
}

export function writeJson(res: JsonResponse, status: number, body: unknown, etag?: (text: string) => string): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  if (etag) res.setHeader('ETag', etag(text));
  res.end(text);
}
