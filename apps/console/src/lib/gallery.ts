import type { AnnotationWire, ImageGalleryEntryWire, ImageGalleryQuery, ImageLiveEventWire, ImagePredictionWire, TaxonomyWire } from '@dts/domain';
import { i18n } from '../i18n';

/** Photos per page of the gallery: the next page loads as the last thumbnails come into view. */
export const GALLERY_PAGE = 48;

/** The gallery's filters, kept in the address bar so that a view can be bookmarked. */
export interface GalleryFilter {
  eui: string;
  label: string;
  species: string;
  /** 0..1, or null for any score. */
  minScore: number | null;
  /** `YYYY-MM-DD` (UTC), inclusive; empty for open. */
  from: string;
  to: string;
}

export const EMPTY_FILTER: GalleryFilter = { eui: '', label: '', species: '', minScore: null, from: '', to: '' };

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function readGalleryFilter(search: string): GalleryFilter {
  const q = new URLSearchParams(search);
  const score = Number(q.get('score'));
  const day = (v: string | null) => (v && DAY.test(v) ? v : '');
  return {
    eui: q.get('eui') ?? '',
    label: q.get('label') ?? '',
    species: q.get('species') ?? '',
    minScore: q.has('score') && Number.isFinite(score) && score >= 0 && score <= 1 ? score : null,
    from: day(q.get('from')),
    to: day(q.get('to')),
  };
}

export function writeGalleryFilter(f: GalleryFilter): string {
  const q = new URLSearchParams();
  if (f.eui) q.set('eui', f.eui);
  if (f.label) q.set('label', f.label);
  if (f.species) q.set('species', f.species);
  if (f.minScore !== null) q.set('score', String(f.minScore));
  if (f.from) q.set('from', f.from);
  if (f.to) q.set('to', f.to);
  const text = q.toString();
  return text ? `?${text}` : '';
}

/** Unix seconds of a UTC day's start, or of its last second (`end`). */
function dayUnix(day: string, end: boolean): number {
  return Date.parse(`${day}T00:00:00Z`) / 1000 + (end ? 86_399 : 0);
}

/** The route's query for the filter (a page's cursor apart). */
export function galleryQuery(f: GalleryFilter, limit = GALLERY_PAGE): ImageGalleryQuery {
  return {
    ...(f.eui ? { eui: f.eui } : {}),
    ...(f.label.trim() ? { label: f.label.trim() } : {}),
    ...(f.species.trim() ? { species: f.species.trim() } : {}),
    ...(f.minScore !== null ? { min_score: f.minScore } : {}),
    ...(f.from ? { from: dayUnix(f.from, false) } : {}),
    ...(f.to ? { to: dayUnix(f.to, true) } : {}),
    limit,
  };
}

/** A box or the image-level prediction: what the gallery's filters look at. */
export interface Detection {
  label: string;
  score: number;
  taxonomy: TaxonomyWire | null;
  /** Normalised [x, y, w, h]; null for the image-level prediction. */
  bbox: [number, number, number, number] | null;
}

export function detectionsOf(image: { annotations: AnnotationWire[]; prediction: ImagePredictionWire | null }): Detection[] {
  const boxes = image.annotations.map((a) => ({ label: a.label, score: a.score, taxonomy: a.taxonomy, bbox: a.bbox }));
  return image.prediction ? [...boxes, { ...image.prediction, bbox: null }] : boxes;
}

const contains = (text: string, part: string) => text.toLowerCase().includes(part.trim().toLowerCase());
const taxonomyText = (t: TaxonomyWire | null) => (t ? [t.class, t.order, t.family, t.genus, t.species].filter(Boolean).join(' ') : null);

/** Whether the image passes the filter, judged as the service judges it (one detection must match label, species and score). */
export function matchesFilter(image: ImageGalleryEntryWire, f: GalleryFilter): boolean {
  if (f.eui && image.devEUI !== f.eui) return false;
  if (f.from && image.ts_photo_unix < dayUnix(f.from, false)) return false;
  if (f.to && image.ts_photo_unix > dayUnix(f.to, true)) return false;
  const label = f.label.trim();
  const species = f.species.trim();
  if (!label && !species && f.minScore === null) return true;
  return detectionsOf(image).some((d) => {
    if (label && !contains(d.label, label)) return false;
    const tax = taxonomyText(d.taxonomy);
    if (species && (tax === null || !contains(tax, species))) return false;
    return f.minScore === null || d.score >= f.minScore;
  });
}

/** Newest photo first; the service breaks ties by upload order, which the console cannot see: by hash, only to be stable. */
const newerFirst = (a: ImageGalleryEntryWire, b: ImageGalleryEntryWire) => b.ts_photo_unix - a.ts_photo_unix || (a.hash < b.hash ? -1 : 1);

/**
 * A live image event merged into the gallery's pages: a known image is replaced (or removed when
 * deleted or no longer matching); a new one that matches is put in its place among the loaded
 * photos — unless it is older than everything loaded while more pages follow (it will come with them).
 */
export function mergeImageEvent(
  pages: ImageGalleryEntryWire[][],
  event: ImageLiveEventWire,
  filter: GalleryFilter,
  morePages: boolean,
): ImageGalleryEntryWire[][] {
  const { deleted, ...entry } = event;
  const keep = !deleted && matchesFilter(entry, filter);
  let found = false;
  const next = pages.map((page) =>
    page.flatMap((image) => {
      if (image.hash !== entry.hash || image.devEUI !== entry.devEUI) return [image];
      found = true;
      return keep ? [entry] : [];
    }),
  );
  if (found || !keep) return found ? next : pages;
  const all = next.flat();
  const oldest = all.at(-1);
  if (morePages && oldest && newerFirst(entry, oldest) > 0) return pages;
  // Put into the first page whose last photo is older; a page may grow by one until the next refetch.
  const index = next.findIndex((page) => page.length === 0 || newerFirst(entry, page[page.length - 1]!) < 0);
  const at = index === -1 ? next.length - 1 : index;
  if (at < 0) return [[entry]];
  return next.map((page, i) => (i === at ? [...page, entry].sort(newerFirst) : page));
}

export interface Neighbours<T> {
  previous: T | null;
  next: T | null;
  /** Where the photo stood in the list (0-based), or -1 when it is not in it. */
  position: number;
}

/**
 * The photos before and after the current one. A photo relabelled so that it no longer matches
 * the gallery's filter leaves the list; ← and → then go on from where it stood (`remembered`, the
 * last answer while it was in the list, as long as those photos are still there), so that a person
 * working through "animal" photos naming their species keeps walking.
 */
export function neighbours<T extends { hash: string; devEUI: string }>(
  list: readonly T[],
  current: { hash: string; devEUI: string },
  remembered: Neighbours<T> | null,
): Neighbours<T> {
  const position = list.findIndex((x) => x.hash === current.hash && x.devEUI === current.devEUI);
  if (position !== -1) return { previous: list[position - 1] ?? null, next: list[position + 1] ?? null, position };
  const still = (x: T | null | undefined) => (x && list.some((y) => y.hash === x.hash && y.devEUI === x.devEUI) ? x : null);
  return { previous: still(remembered?.previous), next: still(remembered?.next), position: -1 };
}

/** "Capreolus capreolus (Cervidae)" from a taxonomy; null without one. */
export function taxonomyName(t: TaxonomyWire | null): string | null {
  if (!t) return null;
  const binomial = [t.genus, t.species].filter(Boolean).join(' ');
  const name = binomial ? binomial.charAt(0).toUpperCase() + binomial.slice(1) : null;
  const family = t.family ? t.family.charAt(0).toUpperCase() + t.family.slice(1) : null;
  if (name && family) return `${name} (${family})`;
  return name ?? family ?? (t.order || t.class || null);
}

const STATUS_KEYS = { 1: 'received', 2: 'processing', 3: 'failed', 4: 'ready', 5: 'annotated' } as const;

/** A photo's processing status in words (received, processing, failed, ready, annotated), in the console's language. */
export function statusText(status: number): string {
  const key = STATUS_KEYS[status as keyof typeof STATUS_KEYS];
  return key ? i18n.t(`cameraTraps.status.${key}`) : String(status);
}
