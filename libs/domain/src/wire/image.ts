/** Camera-trap images (docs/api.md §15, §7). */
export interface TaxonomyWire {
  id: string;
  class: string;
  order: string;
  family: string;
  genus: string;
  species: string;
}

/**
 * Who made an annotation: `person` for one drawn, labelled or confirmed by a person; a detector
 * import names its detector (`MegaDetector (…)`, `SpeciesNet 4.0.0a`); null when the sender said
 * nothing (annotations stored before the member existed, or a list without it).
 */
export const ANNOTATION_SOURCE_PERSON = 'person';

export interface AnnotationWire {
  id: number;
  bbox: [number, number, number, number];
  score: number;
  label: string;
  taxonomy: TaxonomyWire | null;
  /** Who made it (ANNOTATION_SOURCE_PERSON, or a detector's name); null when unsaid. */
  source: string | null;
}

/** An annotation as stored: those stored before `source` existed lack it. */
export type StoredAnnotation = Omit<AnnotationWire, 'source'> & { source?: string | null };

/** Stored annotations as the wire shows them: `source` null where it was stored before the member existed. */
export function annotationsWire(stored: readonly StoredAnnotation[]): AnnotationWire[] {
  return stored.map((a) => ({ ...a, source: a.source ?? null }));
}

/**
 * What a classifier said of the whole image, without a box: SpeciesNet's ensemble `prediction` or
 * its classifier-only output, or a prediction sent in our own format. `label` "blank" means no animal.
 */
export interface ImagePredictionWire {
  label: string;
  score: number;
  taxonomy: TaxonomyWire | null;
  /** Who made it, as the detector output says (`classifier`, `classifier+geofence+rollup_to_class`…); null when unsaid. */
  source: string | null;
}

/** 1 received, 2 processing, 3 failed, 4 ready, 5 annotated (boxes or an image-level prediction). */
export const IMAGE_STATUS = { RECEIVED: 1, PROCESSING: 2, FAILED: 3, READY: 4, ANNOTATED: 5 } as const;
export type ImageStatus = (typeof IMAGE_STATUS)[keyof typeof IMAGE_STATUS];

export interface ImageListEntryWire {
  hash: string;
  ts_photo_unix: number;
  ts_tx_unix: number;
  ts_sync_unix: number;
  lat: number | null;
  lon: number | null;
  annotations: AnnotationWire[];
  prediction: ImagePredictionWire | null;
  status: ImageStatus;
  filename: string;
}

export interface ImageDetailWire {
  hash: string;
  meta: {
    uid: number;
    camera_ref: number;
    ts_photo_unix: number;
    ts_tx_unix: number;
    ts_sync_unix: number;
    vendor_id: string | null;
    url: string;
    longitude: number | null;
    latitude: number | null;
    image_details: string | null;
    /** JSON-encoded AnnotationWire[], as docs/api.md §15 shows it. */
    annotations: string;
    prediction: ImagePredictionWire | null;
    status: ImageStatus;
    deleted: 0 | 1;
    filename: string;
    hash: string;
    bin_hash: string;
  };
  images: { thumb: string | null };
}

/** GET /user/image: a list entry naming its camera (the gallery across devices). */
export interface ImageGalleryEntryWire extends ImageListEntryWire {
  devEUI: string;
}

/** GET /user/image's `meta`: pass `next_cursor` as `cursor` (same filters) for the next page; null on the last. */
export interface ImageGalleryMetaWire {
  next_cursor: string | null;
}

/** GET /user/image's query members (docs/api.md §7). */
export interface ImageGalleryQuery {
  /** One camera only. */
  eui?: string;
  /** A detection (box or image-level prediction) whose label contains this text, without regard to case. */
  label?: string;
  /** A detection whose taxonomy (class, order, family, genus or species) contains this text. */
  species?: string;
  /** A detection scored at least this (0..1). With label or species, the same detection must match them all. */
  min_score?: number;
  /** Photos taken at or after / before this (unix seconds). */
  from?: number;
  to?: number;
  limit?: number;
  cursor?: string;
}

/**
 * GET /user/image/labels: a label used on the account's photos (a box or an image-level
 * prediction), how often, and the taxonomy most often given with it (null when never).
 */
export interface ImageLabelWire {
  label: string;
  taxonomy: TaxonomyWire | null;
  count: number;
}

export const IMAGE_LABELS_MAX_LIMIT = 1000;
export const IMAGE_LABELS_DEFAULT_LIMIT = 200;

export const IMAGE_GALLERY_MAX_LIMIT = 200;
export const IMAGE_GALLERY_DEFAULT_LIMIT = 60;

/**
 * `event: image` of the live feeds: an image stored, processed (thumbnail made or failed),
 * annotated or deleted, as the gallery shows it; `deleted` true once it is gone from listings.
 */
export interface ImageLiveEventWire extends ImageGalleryEntryWire {
  deleted: boolean;
}
