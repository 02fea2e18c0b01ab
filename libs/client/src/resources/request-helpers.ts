import type { QueryValue } from '../transport';

/** What the image upload accepts as the file's bytes. */
export type Bytes = Uint8Array | ArrayBuffer | Blob;

function toBlob(bytes: Bytes, type?: string): Blob {
  if (bytes instanceof Blob) return bytes;
  // Copied into a fresh ArrayBuffer: a view on a shared or larger buffer must not send its neighbours.
  const copy = bytes instanceof Uint8Array ? new Uint8Array(bytes) : new Uint8Array(bytes.slice(0));
  return new Blob([copy], type ? { type } : {});
}

export function imageForm(bytes: Bytes, fields: Record<string, string | number | undefined>): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) form.append(k, String(v));
  form.append('file', toBlob(bytes), typeof fields.filename === 'string' ? fields.filename : 'image');
  return form;
}

export const query = (q: object | undefined): Record<string, QueryValue> => ({ ...(q as Record<string, QueryValue>) });
