import { base64ToBytes, bytesToBase64 } from '../payload';

/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): every request carries
 * `webhook-id` (the event's id, the same on every retry, for the receiver to drop duplicates),
 * `webhook-timestamp` (unix seconds of this attempt) and `webhook-signature`: `v1,` and the Base64
 * HMAC-SHA256 of `<id>.<timestamp>.<body>` keyed with the secret's bytes. A secret is `whsec_` and
 * the Base64 of those bytes, which is what the standard's libraries take.
 */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** 32 random bytes: the standard asks for 24 to 64. */
export const WEBHOOK_SECRET_BYTES = 32;

export function generateWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${bytesToBase64(globalThis.crypto.getRandomValues(new Uint8Array(WEBHOOK_SECRET_BYTES)))}`;
}

/** The key bytes of a `whsec_…` secret (the prefix is optional, as in the standard's libraries), or null. */
export function webhookSecretKey(secret: string): Uint8Array | null {
  const bytes = base64ToBytes(secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret);
  return bytes && bytes.length > 0 ? bytes : null;
}

/** What is signed: `<id>.<timestamp>.<body>`. */
export function webhookSignedContent(id: string, timestampSeconds: number, body: string): string {
  return `${id}.${timestampSeconds}.${body}`;
}

export const formatWebhookSignature = (macBase64: string) => `v1,${macBase64}`;

/** The `webhook-signature` value, computed with WebCrypto (any runtime: Node, a browser, a worker). */
export async function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): Promise<string> {
  const key = webhookSecretKey(secret);
  if (!key) throw new Error('the webhook secret is not whsec_ and Base64');
  const subtle = globalThis.crypto.subtle;
  const hmacKey = await subtle.importKey('raw', new Uint8Array(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = await subtle.sign('HMAC', hmacKey, new TextEncoder().encode(webhookSignedContent(id, timestampSeconds, body)));
  return formatWebhookSignature(bytesToBase64(new Uint8Array(mac)));
}

/**
 * Whether one of the space-separated signatures in `header` is the `v1` signature of the request
 * (a receiver's check; the timestamp's age is the receiver's own policy).
 */
export async function verifyWebhook(secret: string, id: string, timestampSeconds: number, body: string, header: string): Promise<boolean> {
  const expected = await signWebhook(secret, id, timestampSeconds, body);
  return header.split(' ').some((candidate) => candidate.length === expected.length && candidate === expected);
}
