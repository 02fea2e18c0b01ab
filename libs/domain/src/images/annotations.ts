import type { AnnotationWire, TaxonomyWire } from '../wire/image';

export type AnnotationProblem = { field: string; message: string };
type Obj = Record<string, unknown>;

export const MAX_ANNOTATIONS = 500;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const basename = (path: string) => path.split(/[\\/]/).pop()!.toLowerCase();

class Refused extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

function bbox(v: unknown, field: string): [number, number, number, number] {
  if (!Array.isArray(v) || v.length !== 4 || !v.every((n) => typeof n === 'number' && Number.isFinite(n) && n >= 0 && n <= 1)) {
    throw new Refused(field, `${field} must be [x, y, width, height], each within 0..1`);
  }
  const [x, y, w, h] = v as number[];
  if (x + w > 1.000001 || y + h > 1.000001) throw new Refused(field, `${field} reaches beyond the image`);
  return [x, y, w, h];
}

function score(v: unknown, field: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1) throw new Refused(field, `${field} must be a number within 0..1`);
  return v;
}

function label(v: unknown, field: string): string {
  if (typeof v !== 'string' || v.length === 0 || v.length > 100) throw new Refused(field, `${field} must be a text of 1 to 100 characters`);
  return v;
}

const TAXONOMY_KEYS = ['id', 'class', 'order', 'family', 'genus', 'species'] as const;

function taxonomy(v: unknown, field: string): TaxonomyWire | null {
  if (v === undefined || v === null) return null;
  if (!isObj(v)) throw new Refused(field, `${field} must be an object {id, class, order, family, genus, species}`);
  for (const key of Object.keys(v)) if (!(TAXONOMY_KEYS as readonly string[]).includes(key)) throw new Refused(`${field}.${key}`, `${field}.${key} is not an accepted member`);
  const out = {} as TaxonomyWire;
  for (const key of TAXONOMY_KEYS) {
    const value = v[key] ?? '';
    if (typeof value !== 'string' || value.length > 200) throw new Refused(`${field}.${key}`, `${field}.${key} must be a text`);
    out[key] = value;
  }
  return out;
}

/** SpeciesNet's "uuid;class;order;family;genus;species;common name" into a taxonomy and a label. */
export function speciesNetTaxonomy(prediction: string): { taxonomy: TaxonomyWire; label: string } | null {
  const parts = prediction.split(';');
  if (parts.length < 7) return null;
  const [id, cls, order, family, genus, species, common] = parts;
  return { taxonomy: { id, class: cls, order, family, genus, species }, label: common || [genus, species].filter(Boolean).join(' ') || cls || 'animal' };
}

function pick<T extends Obj>(entries: unknown, key: string, member: string, filename: string): T {
  if (!Array.isArray(entries) || entries.length === 0) throw new Refused(member, `${member} must be a non-empty array`);
  if (entries.length === 1) return entries[0] as T;
  const found = entries.find((e) => isObj(e) && typeof e[key] === 'string' && basename(e[key] as string) === basename(filename));
  if (!found) throw new Refused(member, `no entry of ${member} names the image's file (${filename})`);
  return found as T;
}

function fromDetector(list: unknown[]): AnnotationWire[] {
  return list.map((raw, i) => {
    const f = `[${i}]`;
    if (!isObj(raw)) throw new Refused(f, `${f} must be an object {bbox, score, label, taxonomy?}`);
    for (const key of Object.keys(raw)) if (!['bbox', 'score', 'label', 'taxonomy'].includes(key)) throw new Refused(`${f}.${key}`, `${f}.${key} is not an accepted member`);
    return { id: i + 1, bbox: bbox(raw.bbox, `${f}.bbox`), score: score(raw.score, `${f}.score`), label: label(raw.label, `${f}.label`), taxonomy: taxonomy(raw.taxonomy, `${f}.taxonomy`) };
  });
}

/** MegaDetector batch output: {images: [{file, detections: [{category, conf, bbox}]}], detection_categories}. */
function fromMegaDetector(body: Obj, filename: string): AnnotationWire[] {
  const categories = isObj(body.detection_categories) ? body.detection_categories : { '1': 'animal', '2': 'person', '3': 'vehicle' };
  const image = pick<Obj>(body.images, 'file', 'images', filename);
  if (image.failure) throw new Refused('images', `MegaDetector failed on this image: ${String(image.failure)}`);
  const detections = Array.isArray(image.detections) ? image.detections : [];
  return detections.map((d, i) => {
    const f = `images.detections[${i}]`;
    if (!isObj(d)) throw new Refused(f, `${f} must be an object`);
    const name = categories[String(d.category)];
    return { id: i + 1, bbox: bbox(d.bbox, `${f}.bbox`), score: score(d.conf, `${f}.conf`), label: label(typeof name === 'string' ? name : `category ${String(d.category)}`, `${f}.category`), taxonomy: null };
  });
}

/** SpeciesNet predictions: {predictions: [{filepath, detections, prediction, prediction_score}]}. */
function fromSpeciesNet(body: Obj, filename: string): AnnotationWire[] {
  const entry = pick<Obj>(body.predictions, 'filepath', 'predictions', filename);
  const species = typeof entry.prediction === 'string' ? speciesNetTaxonomy(entry.prediction) : null;
  const detections = Array.isArray(entry.detections) ? entry.detections : [];
  return detections.map((d, i) => {
    const f = `predictions.detections[${i}]`;
    if (!isObj(d)) throw new Refused(f, `${f} must be an object`);
    const detected = typeof d.label === 'string' ? d.label : 'animal';
    // The image-level species applies to the animals it detected, not to people or vehicles.
    const isAnimal = detected === 'animal' && species !== null && species.taxonomy.class !== '';
    return {
      id: i + 1,
      bbox: bbox(d.bbox, `${f}.bbox`),
      score: score(d.conf, `${f}.conf`),
      label: label(isAnimal ? species.label : detected, `${f}.label`),
      taxonomy: isAnimal ? species.taxonomy : null,
    };
  });
}

/**
 * Annotations from a detector: our own list `[{bbox, score, label, taxonomy?}]`, MegaDetector batch
 * output, or SpeciesNet predictions. Boxes are normalised [x, y, width, height].
 */
export function annotationsFrom(body: unknown, filename: string): AnnotationWire[] | AnnotationProblem {
  try {
    let out: AnnotationWire[];
    if (Array.isArray(body)) out = fromDetector(body);
    else if (isObj(body) && 'images' in body) out = fromMegaDetector(body, filename);
    else if (isObj(body) && 'predictions' in body) out = fromSpeciesNet(body, filename);
    else return { field: 'body', message: 'send [{bbox, score, label, taxonomy?}], MegaDetector batch output {images, …} or SpeciesNet predictions {predictions}' };
    if (out.length > MAX_ANNOTATIONS) return { field: 'body', message: `at most ${MAX_ANNOTATIONS} annotations per image` };
    return out;
  } catch (error) {
    if (error instanceof Refused) return { field: error.field, message: error.message };
    throw error;
  }
}
