import type {
  AnnotationRequest,
  AnnotationsRequest,
  ImageDetailWire,
  ImageGalleryEntryWire,
  ImageGalleryMetaWire,
  ImageGalleryQuery,
  ImageLabelWire,
  ImageListEntryWire,
  ImageUploadForm,
} from '@dts/domain';
import { ROUTES } from '../routes';
import type { Transport } from '../transport';
import { type Bytes, imageForm, query } from './request-helpers';

export interface ImageFile {
  bytes: Uint8Array;
  contentType: string | null;
  etag: string | null;
}

export interface UploadOptions {
  /** Bytes of the request sent so far, and its size (browsers only). */
  onProgress?: (sent: number, total: number) => void;
  signal?: AbortSignal;
}

async function uploadImage(t: Transport, eui: string, bytes: Bytes, form: ImageUploadForm, options: UploadOptions) {
  const res = await t.request<ImageDetailWire>(ROUTES.imagesUpload, {
    params: { eui },
    form: imageForm(bytes, { ...form }),
    onUploadProgress: options.onProgress,
    signal: options.signal,
  });
  return { created: res.status === 201, image: res.data };
}

export const imagesApi = (t: Transport) => ({
  /** Newest photo first. */
  list: (eui: string) => t.data<ImageListEntryWire[]>(ROUTES.imagesList, { params: { eui } }),
  /** Every camera's photos (or one's), newest first, filtered; `meta.next_cursor` is the next page's `cursor`. */
  gallery: async (q: ImageGalleryQuery = {}) => {
    const res = await t.request<ImageGalleryEntryWire[], ImageGalleryMetaWire>(ROUTES.imagesGallery, { query: query(q) });
    return { images: res.data, meta: res.meta };
  },
  /** The labels used on the account's photos, the most used first, each with its usual taxonomy (suggestions when labelling). */
  labels: (q: { limit?: number } = {}) => t.data<ImageLabelWire[]>(ROUTES.imagesLabels, { query: query(q) }),
  /** Where the thumbnail is served (for an `<img>` of a page signed in with the session cookie). */
  thumbUrl: (eui: string, hash: string) => t.url(ROUTES.imagesThumb, { params: { eui, image_hash: hash } }),
  /** The thumbnail's JPEG bytes; 404 until the worker made it. */
  thumb: async (eui: string, hash: string): Promise<ImageFile> => {
    const res = await t.raw(ROUTES.imagesThumb, { params: { eui, image_hash: hash } });
    return { bytes: new Uint8Array(await res.arrayBuffer()), contentType: res.headers.get('content-type'), etag: res.headers.get('etag') };
  },
  /** Uploads a JPEG or PNG (multipart `file`); the same bytes again answer the existing image. */
  upload: (eui: string, bytes: Bytes, form: ImageUploadForm = {}, options: UploadOptions = {}) =>
    uploadImage(t, eui, bytes, form, options).then((r) => r.image),
  /**
   * The same, telling whether the image is new (201) or the same bytes were there already (200).
   * In a browser, `onProgress` is told the bytes sent so far.
   */
  uploadWithStatus: (eui: string, bytes: Bytes, form: ImageUploadForm = {}, options: UploadOptions = {}) => uploadImage(t, eui, bytes, form, options),
  get: (eui: string, hash: string) => t.data<ImageDetailWire>(ROUTES.imagesGet, { params: { eui, image_hash: hash } }),
  remove: (eui: string, hash: string) => t.data<{ hash: string; deleted: true }>(ROUTES.imagesRemove, { params: { eui, image_hash: hash } }),
  /**
   * Replaces the photo's annotations: our list or object form (boxes and the image-level
   * prediction), or MegaDetector batch output / SpeciesNet predictions as they come (the entry of
   * the photo's file is picked).
   */
  annotate: (eui: string, hash: string, annotations: readonly AnnotationRequest[] | AnnotationsRequest | Record<string, unknown>) =>
    t.data<ImageDetailWire>(ROUTES.imagesAnnotate, { params: { eui, image_hash: hash }, body: annotations }),
  /**
   * The file behind a signed link (an image detail's `meta.url`), fetched from this client's base
   * URL with no credentials: the signature is the credential.
   */
  file: async (signedUrl: string): Promise<ImageFile> => {
    const link = new URL(signedUrl, 'http://link.invalid');
    const hash = decodeURIComponent(link.pathname.split('/').pop() ?? '');
    const q: Record<string, string> = Object.fromEntries(link.searchParams);
    const res = await t.raw(ROUTES.imagesFile, { params: { image_hash: hash }, query: q, credentials: 'none' });
    return { bytes: new Uint8Array(await res.arrayBuffer()), contentType: res.headers.get('content-type'), etag: res.headers.get('etag') };
  },
});
