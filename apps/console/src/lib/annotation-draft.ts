import {
  ANNOTATION_SOURCE_PERSON,
  type AnnotationsRequest,
  type AnnotationWire,
  type ImageLabelWire,
  type ImagePredictionWire,
  type TaxonomyWire,
} from '@dts/domain';
import { type Box, clampBox, sameBox } from './box-geometry';
import { i18n } from '../i18n';

/**
 * A photo's annotations as a person edits them before saving: the boxes (each with a key of its
 * own for the page, stable while the list changes) and the image-level prediction. Saving sends
 * them whole through the annotate route in our object form; what it answers becomes the draft anew.
 */
export interface DraftBox {
  key: number;
  bbox: Box;
  label: string;
  /** 0..1; a person's label is sure (1) unless they say otherwise. */
  score: number;
  taxonomy: TaxonomyWire | null;
  /** Who made it: ANNOTATION_SOURCE_PERSON, a detector's name, or null (unsaid). */
  source: string | null;
}

export interface DraftPrediction {
  label: string;
  score: number;
  taxonomy: TaxonomyWire | null;
  source: string | null;
}

export interface Draft {
  boxes: DraftBox[];
  prediction: DraftPrediction | null;
}

export const PERSON = ANNOTATION_SOURCE_PERSON;
export const TAXONOMY_LEVELS = ['class', 'order', 'family', 'genus', 'species'] as const;
export type TaxonomyLevel = (typeof TAXONOMY_LEVELS)[number];
export const EMPTY_TAXONOMY: TaxonomyWire = { id: '', class: '', order: '', family: '', genus: '', species: '' };
/** As the service takes a label (docs/api.md §7). */
export const LABEL_MAX = 100;

let nextKey = 0;
const key = () => ++nextKey;

export const byPerson = (source: string | null) => source === PERSON;

/** Who made it, in words: "a person", the detector's name, or "unknown" when the data does not say. */
export function sourceText(source: string | null): string {
  if (source === null) return i18n.t('cameraTraps.draft.sourceUnknown');
  return byPerson(source) ? i18n.t('cameraTraps.draft.person') : source;
}

/** The draft of what the service stored (the detail's annotations and prediction). */
export function draftOf(annotations: readonly AnnotationWire[], prediction: ImagePredictionWire | null): Draft {
  return {
    boxes: annotations.map((a) => ({ key: key(), bbox: [...a.bbox], label: a.label, score: a.score, taxonomy: a.taxonomy, source: a.source ?? null })),
    prediction: prediction ? { ...prediction } : null,
  };
}

/** A box a person drew (or added with the keyboard): theirs, sure, and still to be labelled. */
export function newBox(bbox: Box, label = ''): DraftBox {
  return { key: key(), bbox: clampBox(bbox), label, score: 1, taxonomy: null, source: PERSON };
}

export type BoxChange = Partial<Pick<DraftBox, 'bbox' | 'label' | 'score' | 'taxonomy'>>;

/**
 * A change a person made to a box. Whatever they change, the box is theirs from then on: a
 * detector's box moved or relabelled is a person's judgement. A new label is sure (score 1)
 * unless the same change sets the score; moving or resizing keeps the score.
 */
export function editBox(box: DraftBox, change: BoxChange): DraftBox {
  const bbox = change.bbox ? clampBox(change.bbox) : box.bbox;
  const relabelled = change.label !== undefined && change.label !== box.label;
  const changed =
    !sameBox(bbox, box.bbox) ||
    relabelled ||
    (change.score !== undefined && change.score !== box.score) ||
    (change.taxonomy !== undefined && JSON.stringify(change.taxonomy) !== JSON.stringify(box.taxonomy));
  if (!changed) return box;
  const score = change.score ?? (relabelled && !byPerson(box.source) ? 1 : box.score);
  return { ...box, ...change, bbox, score, source: PERSON };
}

/** A detector's box confirmed as it is: a person's now, and sure. */
export const confirmBox = (box: DraftBox): DraftBox => ({ ...box, score: 1, source: PERSON });

/** The image-level prediction as a person sets it: theirs, sure unless they say otherwise. */
export function editPrediction(prediction: DraftPrediction | null, change: Partial<DraftPrediction>): DraftPrediction {
  const base = prediction ?? { label: '', score: 1, taxonomy: null, source: PERSON };
  return { ...base, ...change, source: PERSON };
}

/** A taxonomy with one level changed; null when every level is empty (and so says nothing). */
export function setTaxonomyLevel(taxonomy: TaxonomyWire | null, level: TaxonomyLevel, value: string): TaxonomyWire | null {
  const next = { ...(taxonomy ?? EMPTY_TAXONOMY), [level]: value };
  return TAXONOMY_LEVELS.some((l) => next[l].trim() !== '') ? next : null;
}

/** What stops the draft from being saved, each said so that a person knows which box. */
export function draftProblems(draft: Draft): string[] {
  const problems: string[] = [];
  draft.boxes.forEach((b, i) => {
    if (!b.label.trim()) problems.push(i18n.t('cameraTraps.draft.noLabel', { n: i + 1 }));
    else if (b.label.trim().length > LABEL_MAX) problems.push(i18n.t('cameraTraps.draft.labelTooLong', { n: i + 1, max: LABEL_MAX }));
    if (!(b.score >= 0 && b.score <= 1)) problems.push(i18n.t('cameraTraps.draft.score', { n: i + 1 }));
  });
  const p = draft.prediction;
  if (p) {
    if (!p.label.trim()) problems.push(i18n.t('cameraTraps.draft.wholeEmpty'));
    else if (p.label.trim().length > LABEL_MAX) problems.push(i18n.t('cameraTraps.draft.wholeTooLong', { max: LABEL_MAX }));
    if (!(p.score >= 0 && p.score <= 1)) problems.push(i18n.t('cameraTraps.draft.wholeScore'));
  }
  return problems;
}

const trimmedTaxonomy = (t: TaxonomyWire | null) => (t ? { ...t, ...Object.fromEntries(TAXONOMY_LEVELS.map((l) => [l, t[l].trim()])) } : null);

/** The annotate route's body in our object form: everything the draft holds, replacing what was stored. */
export function draftRequest(draft: Draft): AnnotationsRequest {
  return {
    annotations: draft.boxes.map((b) => ({
      bbox: b.bbox,
      score: b.score,
      label: b.label.trim(),
      taxonomy: trimmedTaxonomy(b.taxonomy),
      source: b.source,
    })),
    prediction: draft.prediction
      ? {
          label: draft.prediction.label.trim(),
          score: draft.prediction.score,
          taxonomy: trimmedTaxonomy(draft.prediction.taxonomy),
          source: draft.prediction.source,
        }
      : null,
  };
}

/** Whether the draft says something other than what was stored (keys apart). */
export function draftChanged(draft: Draft, stored: Draft): boolean {
  return JSON.stringify(draftRequest(draft)) !== JSON.stringify(draftRequest(stored));
}

/** A score as a person reads and types it: a whole percentage. */
export const scorePercent = (score: number) => Math.round(score * 100);
/** A typed percentage as a score (0..1), or NaN when it is not one. */
export const percentScore = (text: string) => {
  const n = Number(text.trim().replace(/\s*%$/, ''));
  return text.trim() !== '' && Number.isFinite(n) && n >= 0 && n <= 100 ? n / 100 : Number.NaN;
};

/**
 * Labels to suggest while a person types one: those used on the account's photos (most used
 * first, each with its usual taxonomy) and the ones already in this draft, once each (without
 * regard to case). With typed text, the labels that start with it come first, then those that
 * contain it; without, the most used.
 */
export function suggestLabels(used: readonly ImageLabelWire[], draft: Draft, typed = '', limit = 50): ImageLabelWire[] {
  const all = new Map<string, ImageLabelWire>();
  const add = (label: string, taxonomy: TaxonomyWire | null, count: number) => {
    const text = label.trim();
    if (!text) return;
    const known = all.get(text.toLowerCase());
    if (known) all.set(text.toLowerCase(), { ...known, taxonomy: known.taxonomy ?? taxonomy, count: known.count + count });
    else all.set(text.toLowerCase(), { label: text, taxonomy, count });
  };
  for (const l of used) add(l.label, l.taxonomy, l.count);
  for (const b of draft.boxes) add(b.label, b.taxonomy, 0);
  if (draft.prediction) add(draft.prediction.label, draft.prediction.taxonomy, 0);
  const part = typed.trim().toLowerCase();
  const rank = (l: ImageLabelWire) => (!part ? 0 : l.label.toLowerCase().startsWith(part) ? 0 : l.label.toLowerCase().includes(part) ? 1 : 2);
  return [...all.values()]
    .filter((l) => rank(l) < 2 && l.label.toLowerCase() !== part)
    .sort((a, b) => rank(a) - rank(b) || b.count - a.count || a.label.localeCompare(b.label))
    .slice(0, limit);
}

/** The taxonomy a known label goes with (any case), for a box or prediction that has none yet. */
export function taxonomyOfLabel(used: readonly ImageLabelWire[], label: string): TaxonomyWire | null {
  const text = label.trim().toLowerCase();
  return used.find((l) => l.label.toLowerCase() === text)?.taxonomy ?? null;
}

const sameTaxonomy = (a: TaxonomyWire | null, b: TaxonomyWire | null) => JSON.stringify(a) === JSON.stringify(b);

/**
 * A label typed or chosen (one keystroke at a time): the taxonomy follows the label. A known
 * label brings its usual taxonomy ("roe deer" is filed as Capreolus capreolus like the others);
 * a taxonomy that came with the old label goes with it; one set by hand otherwise stays.
 */
export function labelChange(item: { label: string; taxonomy: TaxonomyWire | null }, used: readonly ImageLabelWire[], label: string): BoxChange {
  const after = taxonomyOfLabel(used, label);
  if (after) return { label, taxonomy: after };
  if (item.taxonomy && sameTaxonomy(item.taxonomy, taxonomyOfLabel(used, item.label))) return { label, taxonomy: null };
  return { label };
}
