import type { AnnotationWire, ImageLabelWire } from '@dts/domain';
import {
  confirmBox,
  draftChanged,
  draftOf,
  draftProblems,
  draftRequest,
  editBox,
  editPrediction,
  labelChange,
  newBox,
  PERSON,
  percentScore,
  scorePercent,
  setTaxonomyLevel,
  sourceText,
  suggestLabels,
  taxonomyOfLabel,
} from './annotation-draft';

const ROE = { id: 'r1', class: 'mammalia', order: 'artiodactyla', family: 'cervidae', genus: 'capreolus', species: 'capreolus' };
const FOX = { id: 'f1', class: 'mammalia', order: 'carnivora', family: 'canidae', genus: 'vulpes', species: 'vulpes' };
const MD = 'MegaDetector (md_v5a.0.0.pt)';
const stored: AnnotationWire[] = [
  { id: 1, bbox: [0.1, 0.2, 0.3, 0.4], score: 0.92, label: 'animal', taxonomy: null, source: MD },
  { id: 2, bbox: [0.6, 0.5, 0.2, 0.2], score: 1, label: 'roe deer', taxonomy: ROE, source: PERSON },
];
const used: ImageLabelWire[] = [
  { label: 'roe deer', taxonomy: ROE, count: 12 },
  { label: 'red fox', taxonomy: FOX, count: 3 },
  { label: 'animal', taxonomy: null, count: 40 },
  { label: 'Red deer', taxonomy: null, count: 2 },
];

describe('a photo’s annotations as a person edits them', () => {
  it('starts from what is stored and sends it back unchanged: nothing changed', () => {
    const draft = draftOf(stored, { label: 'roe deer', score: 0.7, taxonomy: ROE, source: 'classifier' });
    expect(draft.boxes.map((b) => b.key)).toEqual([expect.any(Number), expect.any(Number)]);
    expect(new Set(draft.boxes.map((b) => b.key)).size).toBe(2);
    expect(draftRequest(draft)).toEqual({
      annotations: stored.map(({ id: _id, ...a }) => a),
      prediction: { label: 'roe deer', score: 0.7, taxonomy: ROE, source: 'classifier' },
    });
    expect(draftChanged(draft, draftOf(stored, { label: 'roe deer', score: 0.7, taxonomy: ROE, source: 'classifier' }))).toBe(false);
  });

  it('makes a drawn box a person’s, sure, and unlabelled until they say', () => {
    const box = newBox([0.5, 0.5, 0.8, 0.1]);
    expect(box).toMatchObject({ bbox: [0.5, 0.5, 0.5, 0.1], label: '', score: 1, taxonomy: null, source: PERSON });
    expect(draftProblems({ boxes: [box], prediction: null })).toEqual(['Box 1 has no label.']);
  });

  it('makes a detector’s box the person’s once they change it; a new label is sure, a moved box keeps its score', () => {
    const [detected] = draftOf(stored, null).boxes;
    expect(editBox(detected!, { label: 'animal' })).toBe(detected);
    expect(editBox(detected!, { bbox: [0.1, 0.2, 0.3, 0.4] })).toBe(detected);
    expect(editBox(detected!, { label: 'roe deer', taxonomy: ROE })).toMatchObject({ label: 'roe deer', taxonomy: ROE, score: 1, source: PERSON });
    expect(editBox(detected!, { bbox: [0.15, 0.2, 0.3, 0.4] })).toMatchObject({ bbox: [0.15, 0.2, 0.3, 0.4], score: 0.92, source: PERSON });
    expect(editBox(detected!, { label: 'hare', score: 0.6 })).toMatchObject({ score: 0.6, source: PERSON });
    // A person's own box keeps the score they gave it when they fix its label.
    const mine = { ...newBox([0, 0, 0.5, 0.5], 'dear'), score: 0.8 };
    expect(editBox(mine, { label: 'deer' }).score).toBe(0.8);
    expect(confirmBox(detected!)).toMatchObject({ label: 'animal', score: 1, source: PERSON });
  });

  it('sets and clears the image-level prediction as the person’s', () => {
    expect(editPrediction(null, { label: 'blank' })).toEqual({ label: 'blank', score: 1, taxonomy: null, source: PERSON });
    expect(editPrediction({ label: 'mammal', score: 0.4, taxonomy: null, source: 'classifier+geofence+rollup_to_class' }, { label: 'roe deer' })).toEqual({
      label: 'roe deer',
      score: 0.4,
      taxonomy: null,
      source: PERSON,
    });
    expect(draftProblems({ boxes: [], prediction: editPrediction(null, {}) })).toEqual(['The whole-image label is empty: give one or clear it.']);
  });

  it('edits a taxonomy level by level; empty at every level it is none', () => {
    const t = setTaxonomyLevel(null, 'family', 'cervidae');
    expect(t).toEqual({ id: '', class: '', order: '', family: 'cervidae', genus: '', species: '' });
    expect(setTaxonomyLevel(t, 'family', ' ')).toBeNull();
  });

  it('says what stops saving, box by box', () => {
    const boxes = [newBox([0, 0, 0.5, 0.5], 'x'.repeat(101)), { ...newBox([0, 0, 0.5, 0.5], 'fox'), score: Number.NaN }];
    expect(draftProblems({ boxes, prediction: { label: 'y', score: 2, taxonomy: null, source: PERSON } })).toEqual([
      "Box 1's label is longer than 100 characters.",
      "Box 2's score must be from 0 to 100 %.",
      'The whole-image score must be from 0 to 100 %.',
    ]);
  });

  it('sends labels and taxonomy levels trimmed', () => {
    const box = { ...newBox([0, 0, 0.5, 0.5], '  roe deer '), taxonomy: { ...ROE, genus: ' capreolus ' } };
    expect(draftRequest({ boxes: [box], prediction: null })).toEqual({
      annotations: [{ bbox: [0, 0, 0.5, 0.5], score: 1, label: 'roe deer', taxonomy: ROE, source: PERSON }],
      prediction: null,
    });
  });

  it('reads and writes scores as whole percentages', () => {
    expect(scorePercent(0.926)).toBe(93);
    expect(percentScore('85')).toBe(0.85);
    expect(percentScore('100 %')).toBe(1);
    expect(percentScore('')).toBeNaN();
    expect(percentScore('101')).toBeNaN();
    expect(percentScore('abc')).toBeNaN();
  });

  it('names who made a box', () => {
    expect(sourceText(PERSON)).toBe('a person');
    expect(sourceText(MD)).toBe(MD);
    expect(sourceText(null)).toBe('source not recorded');
  });
});

describe('label suggestions', () => {
  const draft = draftOf(stored, null);

  it('suggests the account’s labels, most used first, and the draft’s own, once each whatever the case', () => {
    const withNew = { ...draft, boxes: [...draft.boxes, newBox([0, 0, 0.2, 0.2], 'Badger'), newBox([0, 0, 0.2, 0.2], 'ROE DEER')] };
    expect(suggestLabels(used, withNew).map((l) => [l.label, l.count])).toEqual([
      ['animal', 40],
      ['roe deer', 12],
      ['red fox', 3],
      ['Red deer', 2],
      ['Badger', 0],
    ]);
  });

  it('puts the labels that start with the typed text first, then those containing it; not the text itself', () => {
    expect(suggestLabels(used, draft, 're').map((l) => l.label)).toEqual(['red fox', 'Red deer']);
    expect(suggestLabels(used, draft, 'deer').map((l) => l.label)).toEqual(['roe deer', 'Red deer']);
    expect(suggestLabels(used, draft, 'roe deer').map((l) => l.label)).toEqual([]);
    expect(suggestLabels(used, draft, '', 2)).toHaveLength(2);
  });

  it('gives a label its usual taxonomy; a taxonomy that came with the old label goes with it, one set by hand stays', () => {
    expect(taxonomyOfLabel(used, 'Roe Deer ')).toEqual(ROE);
    expect(labelChange({ label: 'animal', taxonomy: null }, used, 'roe deer')).toEqual({ label: 'roe deer', taxonomy: ROE });
    expect(labelChange({ label: 'roe deer', taxonomy: ROE }, used, 'roe dee')).toEqual({ label: 'roe dee', taxonomy: null });
    expect(labelChange({ label: 'hare', taxonomy: FOX }, used, 'hares')).toEqual({ label: 'hares' });
    expect(labelChange({ label: 'roe dee', taxonomy: null }, used, 'red fox')).toEqual({ label: 'red fox', taxonomy: FOX });
  });
});
