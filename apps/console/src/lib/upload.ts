import { IMAGE_MAX_BYTES } from '@dts/domain';

/** One file of an upload and how far it got. */
export interface UploadItem {
  id: number;
  name: string;
  size: number;
  /** Bytes sent (0..size). */
  sent: number;
  state: 'waiting' | 'sending' | 'done' | 'same' | 'refused';
  /** Why the file was refused (by the console before sending, or by the service). */
  problem: string | null;
}

/**
 * Why the console refuses a file before sending it, or null: only JPEG and PNG up to 20 MiB are
 * stored (the service judges by the bytes; the type the browser guesses saves a useless upload).
 */
export function fileProblem(file: { name: string; size: number; type: string }): string | null {
  if (file.size === 0) return 'The file is empty.';
  if (file.size > IMAGE_MAX_BYTES) return `The file is ${megabytes(file.size)}; at most ${megabytes(IMAGE_MAX_BYTES)} are taken.`;
  const type = file.type.toLowerCase();
  const byName = /\.(jpe?g|png)$/i.test(file.name);
  if (type && type !== 'image/jpeg' && type !== 'image/png') return `Only JPEG and PNG photos are taken, not ${type}.`;
  if (!type && !byName) return 'Only JPEG and PNG photos are taken.';
  return null;
}

export function megabytes(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(bytes < 10 * 1_048_576 ? 1 : 0)} MiB`;
}

/** Percent sent, for a progress bar. */
export function percent(item: UploadItem): number {
  if (item.state === 'done' || item.state === 'same') return 100;
  return item.size > 0 ? Math.min(100, Math.round((item.sent / item.size) * 100)) : 0;
}
