import { IMAGE_MAX_BYTES } from '@dts/domain';
import { currentLocale, i18n } from '../i18n';

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
  if (file.size === 0) return i18n.t('cameraTraps.upload.empty');
  if (file.size > IMAGE_MAX_BYTES) return i18n.t('cameraTraps.upload.tooLarge', { size: megabytes(file.size), max: megabytes(IMAGE_MAX_BYTES) });
  const type = file.type.toLowerCase();
  const byName = /\.(jpe?g|png)$/i.test(file.name);
  if (type && type !== 'image/jpeg' && type !== 'image/png') return i18n.t('cameraTraps.upload.wrongType', { type });
  if (!type && !byName) return i18n.t('cameraTraps.upload.unknownType');
  return null;
}

export function megabytes(bytes: number): string {
  const digits = bytes < 10 * 1_048_576 ? 1 : 0;
  const n = (bytes / 1_048_576).toLocaleString(currentLocale(), { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false });
  return i18n.t('cameraTraps.upload.megabytes', { n });
}

/** Percent sent, for a progress bar. */
export function percent(item: UploadItem): number {
  if (item.state === 'done' || item.state === 'same') return 100;
  return item.size > 0 ? Math.min(100, Math.round((item.sent / item.size) * 100)) : 0;
}
