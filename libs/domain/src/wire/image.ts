/** Camera-trap images (spec "Camera-trap image", CONTRACT §7). */
export interface TaxonomyWire {
  id: string;
  class: string;
  order: string;
  family: string;
  genus: string;
  species: string;
}

export interface AnnotationWire {
  id: number;
  bbox: [number, number, number, number];
  score: number;
  label: string;
  taxonomy: TaxonomyWire | null;
}

/** 1 received, 2 processing, 3 failed, 4 ready, 5 annotated. */
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
    /** JSON-encoded AnnotationWire[], as the spec shows it. */
    annotations: string;
    status: ImageStatus;
    deleted: 0 | 1;
    filename: string;
    hash: string;
    bin_hash: string;
  };
  images: { thumb: string | null };
}
