import type { AnnotationWire, ImagePredictionWire, TaxonomyWire } from '../wire/image';
import { textOf } from '../text';

export type AnnotationProblem = { field: string; message: string };
/** What one detector output says of one image: boxes, and what a classifier said of the whole image. */
export interface ImageAnnotations {
  annotations: AnnotationWire[];
  prediction: ImagePredictionWire | null;
}
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

/**
 * Detectors round their coordinates (MegaDetector to 4 decimals), so a box that touches an edge can
 * end at 1.0001 or start at -0.0001. Within this much of an edge a coordinate is clamped; beyond
 * it the box is nonsense and refused, naming it.
 */
export const BBOX_TOLERANCE = 1e-3;
const clamp01 = (n: number) => Math.min(1, Math.max(0, n));

function bbox(v: unknown, field: string): [number, number, number, number] {
  const within = (n: unknown) => typeof n === 'number' && Number.isFinite(n) && n >= -BBOX_TOLERANCE && n <= 1 + BBOX_TOLERANCE;
  if (!Array.isArray(v) || v.length !== 4 || !v.every(within)) {
    throw new Refused(field, `${field} must be [x, y, width, height], each within 0..1`);
  }
  const [x, y, w, h] = v.map(clamp01) as [number, number, number, number];
  if (x + w > 1 + BBOX_TOLERANCE || y + h > 1 + BBOX_TOLERANCE) throw new Refused(field, `${field} reaches beyond the image`);
  // Rounding only: the box ends at the edge it touched.
  return [x, y, Math.min(w, 1 - x), Math.min(h, 1 - y)];
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
  for (const key of Object.keys(v))
    if (!(TAXONOMY_KEYS as readonly string[]).includes(key)) throw new Refused(`${field}.${key}`, `${field}.${key} is not an accepted member`);
  const out = {} as TaxonomyWire;
  for (const key of TAXONOMY_KEYS) {
    const value = v[key] ?? '';
    if (typeof value !== 'string' || value.length > 200) throw new Refused(`${field}.${key}`, `${field}.${key} must be a text`);
    out[key] = value;
  }
  return out;
}

/**
 * MegaDetector's `classification_category_descriptions`, "kingdom;phylum;class;order;family;species"
 * where the last level holds genus and species run together (`ursusamericanus`) or a higher rank.
 */
function megaDetectorTaxonomy(description: unknown): TaxonomyWire | null {
  if (typeof description !== 'string') return null;
  const parts = description.split(';');
  if (parts.length < 6) return null;
  const [, , cls = '', order = '', family = '', last = ''] = parts;
  return { id: '', class: cls, order, family, genus: '', species: last };
}

/** SpeciesNet's "uuid;class;order;family;genus;species;common name" into a taxonomy and a label. */
export function speciesNetTaxonomy(prediction: string): { taxonomy: TaxonomyWire; label: string } | null {
  const [id, cls, order, family, genus, species, common] = prediction.split(';');
  if (id === undefined || cls === undefined || order === undefined || family === undefined || genus === undefined || species === undefined) return null;
  if (common === undefined) return null;
  return { taxonomy: { id, class: cls, order, family, genus, species }, label: common || [genus, species].filter(Boolean).join(' ') || cls || 'animal' };
}

function pick<T extends Obj>(entries: unknown, key: string, member: string, filename: string): T {
  if (!Array.isArray(entries) || entries.length === 0) throw new Refused(member, `${member} must be a non-empty array`);
  if (entries.length === 1) return entries[0] as T;
  const found = entries.find((e) => isObj(e) && typeof e[key] === 'string' && basename(e[key] as string) === basename(filename));
  if (!found) throw new Refused(member, `no entry of ${member} names the image's file (${filename})`);
  return found as T;
}

/** Who made it: a text of 1 to 100 characters, or null when unsaid. */
function source(v: unknown, field: string): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string' || v.length === 0 || v.length > 100) throw new Refused(field, `${field} must be a text of 1 to 100 characters`);
  return v;
}

/** A detector's name with what its output says of its version, kept within a source's 100 characters. */
const detectorSource = (name: string, version: unknown) => (typeof version === 'string' && version.trim() ? `${name} ${version.trim()}` : name).slice(0, 100);

function fromDetector(list: unknown[], prefix = ''): AnnotationWire[] {
  return list.map((raw, i) => {
    const f = `${prefix}[${i}]`;
    if (!isObj(raw)) throw new Refused(f, `${f} must be an object {bbox, score, label, taxonomy?, source?}`);
    for (const key of Object.keys(raw))
      if (!['bbox', 'score', 'label', 'taxonomy', 'source'].includes(key)) throw new Refused(`${f}.${key}`, `${f}.${key} is not an accepted member`);
    return {
      id: i + 1,
      bbox: bbox(raw.bbox, `${f}.bbox`),
      score: score(raw.score, `${f}.score`),
      label: label(raw.label, `${f}.label`),
      taxonomy: taxonomy(raw.taxonomy, `${f}.taxonomy`),
      source: source(raw.source, `${f}.source`),
    };
  });
}

/**
 * MegaDetector batch output: {images: [{file, detections: [{category, conf, bbox, classifications?}]}],
 * detection_categories, classification_categories?}. A detection a classifier ran on (SpeciesNet
 * or another, `classifications` as [category, conf] pairs, best first) is labelled with its best
 * class and that class's taxonomy; the score stays the detector's.
 */
function fromMegaDetector(body: Obj, filename: string): ImageAnnotations {
  const categories = isObj(body.detection_categories) ? body.detection_categories : { '1': 'animal', '2': 'person', '3': 'vehicle' };
  const classes = isObj(body.classification_categories) ? body.classification_categories : {};
  const descriptions = isObj(body.classification_category_descriptions) ? body.classification_category_descriptions : {};
  const image = pick<Obj>(body.images, 'file', 'images', filename);
  const info = isObj(body.info) ? body.info : {};
  const made = detectorSource('MegaDetector', typeof info.detector === 'string' ? `(${info.detector})` : null);
  if (image.failure) throw new Refused('images', `MegaDetector failed on this image: ${textOf(image.failure)}`);
  const detections = Array.isArray(image.detections) ? image.detections : [];
  const annotations = detections.map((d, i) => {
    const f = `images.detections[${i}]`;
    if (!isObj(d)) throw new Refused(f, `${f} must be an object`);
    const best = Array.isArray(d.classifications) && Array.isArray(d.classifications[0]) ? (d.classifications[0] as unknown[]) : null;
    const className = best ? classes[textOf(best[0])] : undefined;
    const name = typeof className === 'string' ? className : categories[textOf(d.category)];
    return {
      id: i + 1,
      bbox: bbox(d.bbox, `${f}.bbox`),
      score: score(d.conf, `${f}.conf`),
      label: label(typeof name === 'string' ? name : `category ${textOf(d.category)}`, `${f}.category`),
      taxonomy: typeof className === 'string' ? megaDetectorTaxonomy(descriptions[textOf(best![0])]) : null,
      source: made,
    };
  });
  return { annotations, prediction: null };
}

/**
 * The image-level species of a SpeciesNet entry: the ensemble's `prediction` and `prediction_score`,
 * or, from the classifier alone (no detector ran), its best class.
 */
function speciesNetPrediction(entry: Obj): ImagePredictionWire | null {
  const source = typeof entry.prediction_source === 'string' ? entry.prediction_source : null;
  if (typeof entry.prediction === 'string') {
    const species = speciesNetTaxonomy(entry.prediction);
    if (!species) throw new Refused('predictions.prediction', 'predictions.prediction must be "uuid;class;order;family;genus;species;common name"');
    return { label: species.label, score: score(entry.prediction_score, 'predictions.prediction_score'), taxonomy: taxonomyOrNull(species.taxonomy), source };
  }
  const classifications = entry.classifications;
  if (isObj(classifications) && Array.isArray(classifications.classes) && typeof classifications.classes[0] === 'string') {
    const species = speciesNetTaxonomy(classifications.classes[0]);
    if (!species) throw new Refused('predictions.classifications.classes', 'predictions.classifications.classes must hold SpeciesNet taxonomy strings');
    const scores = Array.isArray(classifications.scores) ? classifications.scores : [];
    return {
      label: species.label,
      score: score(scores[0], 'predictions.classifications.scores'),
      taxonomy: taxonomyOrNull(species.taxonomy),
      source: 'classifier',
    };
  }
  return null;
}

/** "blank" and other labels with no taxonomic level carry no taxonomy. */
const taxonomyOrNull = (t: TaxonomyWire): TaxonomyWire | null => (t.class === '' ? null : t);

/**
 * SpeciesNet predictions: {predictions: [{filepath, detections?, prediction?, prediction_score?,
 * classifications?}]}: boxes from its detector, the whole image's species from its ensemble or
 * classifier.
 */
function fromSpeciesNet(body: Obj, filename: string): ImageAnnotations {
  const entry = pick<Obj>(body.predictions, 'filepath', 'predictions', filename);
  if (Array.isArray(entry.failures) && entry.failures.length > 0 && !entry.detections && !entry.classifications)
    throw new Refused('predictions', `SpeciesNet failed on this image: ${entry.failures.map((f) => textOf(f)).join(', ')}`);
  const prediction = speciesNetPrediction(entry);
  const detections = Array.isArray(entry.detections) ? entry.detections : [];
  const annotations = detections.map((d, i) => {
    const f = `predictions.detections[${i}]`;
    if (!isObj(d)) throw new Refused(f, `${f} must be an object`);
    const detected = typeof d.label === 'string' ? d.label : 'animal';
    // The image-level species applies to the animals it detected, not to people or vehicles.
    const isAnimal = detected === 'animal' && prediction !== null && prediction.taxonomy !== null;
    return {
      id: i + 1,
      bbox: bbox(d.bbox, `${f}.bbox`),
      score: score(d.conf, `${f}.conf`),
      label: label(isAnimal ? prediction.label : detected, `${f}.label`),
      taxonomy: isAnimal ? prediction.taxonomy : null,
      source: detectorSource('SpeciesNet', entry.model_version),
    };
  });
  return { annotations, prediction };
}

/** Our own image-level prediction: {label, score, taxonomy?, source?}. */
function ownPrediction(v: unknown): ImagePredictionWire | null {
  if (v === undefined || v === null) return null;
  if (!isObj(v)) throw new Refused('prediction', 'prediction must be an object {label, score, taxonomy?, source?}');
  for (const key of Object.keys(v))
    if (!['label', 'score', 'taxonomy', 'source'].includes(key)) throw new Refused(`prediction.${key}`, `prediction.${key} is not an accepted member`);
  const made = v.source ?? null;
  if (made !== null && (typeof made !== 'string' || made.length > 100)) throw new Refused('prediction.source', 'prediction.source must be a text');
  return {
    label: label(v.label, 'prediction.label'),
    score: score(v.score, 'prediction.score'),
    taxonomy: taxonomy(v.taxonomy, 'prediction.taxonomy'),
    source: made,
  };
}

/** Our own object form: {annotations: [{bbox, score, label, taxonomy?, source?}], prediction?}. */
function fromOwnObject(body: Obj): ImageAnnotations {
  for (const key of Object.keys(body))
    if (!['annotations', 'prediction'].includes(key)) throw new Refused(key, `${key} is not an accepted member (annotations, prediction)`);
  if (!Array.isArray(body.annotations)) throw new Refused('annotations', 'annotations must be an array [{bbox, score, label, taxonomy?, source?}]');
  return { annotations: fromDetector(body.annotations, 'annotations'), prediction: ownPrediction(body.prediction) };
}

/**
 * Annotations from a detector or a person: our own list `[{bbox, score, label, taxonomy?, source?}]`
 * or object `{annotations, prediction?}`, MegaDetector batch output, or SpeciesNet predictions
 * (their boxes' `source` names the detector). Boxes are normalised [x, y, width, height];
 * coordinates rounded past an edge are clamped (BBOX_TOLERANCE).
 */
export function annotationsFrom(body: unknown, filename: string): ImageAnnotations | AnnotationProblem {
  try {
    let out: ImageAnnotations;
    if (Array.isArray(body)) out = { annotations: fromDetector(body), prediction: null };
    else if (isObj(body) && 'images' in body) out = fromMegaDetector(body, filename);
    else if (isObj(body) && 'predictions' in body) out = fromSpeciesNet(body, filename);
    else if (isObj(body) && 'annotations' in body) out = fromOwnObject(body);
    else
      return {
        field: 'body',
        message:
          'send [{bbox, score, label, taxonomy?, source?}], {annotations, prediction?}, MegaDetector batch output {images, …} or SpeciesNet predictions {predictions}',
      };
    if (out.annotations.length > MAX_ANNOTATIONS) return { field: 'body', message: `at most ${MAX_ANNOTATIONS} annotations per image` };
    return out;
  } catch (error) {
    if (error instanceof Refused) return { field: error.field, message: error.message };
    throw error;
  }
}
