import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { i18n } from '../i18n';
import { baseName, detectorBody, importSummary, parseDetectorFile } from './detector-file';

/** Real detector outputs kept in test-data/camera-traps (sources in its README). */
const CAMERA_TRAPS = join(__dirname, '../../../../test-data/camera-traps');
const real = (path: string) => readFileSync(join(CAMERA_TRAPS, path), 'utf8');

describe('a detector output file imported for one photo', () => {
  it('names files as the service does: the last part of the path, any case', () => {
    expect(baseName('test_data\\Cam1/IMG_0001.JPG')).toBe('img_0001.jpg');
  });

  it('keeps the MegaDetector entry of the photo (a real file of two photos) and the categories it uses', () => {
    const found = parseDetectorFile(real('megadetector/speciesnet-notebook-detections.md-format.json'), 'ocelot.jpg');
    expect(found).toMatchObject({ kind: 'megadetector', entries: 2 });
    const body = (found as { body: { images: { file: string }[]; detection_categories: object; info: object } }).body;
    expect(body.images.map((i) => i.file)).toEqual(['test_data/ocelot.jpg']);
    expect(body.detection_categories).toEqual({ '1': 'animal' });
    expect(body.info).toEqual({ format_version: '1.6', detector: 'MDV5A (as run inside SpeciesNet)' });
  });

  it('keeps only the classifier categories the kept boxes name (a classifier has thousands: more than a request may hold)', () => {
    const found = detectorBody(JSON.parse(real('megadetector/output-format-example.json')), 'IMAGE_WITH_ANIMAL.JPG');
    expect(found.kind).toBe('megadetector');
    const body = (found as { body: Record<string, unknown> }).body;
    expect((body.images as unknown[]).length).toBe(1);
    expect(body.classification_categories).toEqual({ '1': 'elk', '3': 'bear', '4': 'moose' });
    expect(Object.keys(body.classification_category_descriptions as object).sort()).toEqual(['1', '3', '4']);
    expect(body.detection_categories).toEqual({ '1': 'animal' });
  });

  it('keeps the SpeciesNet entry of the photo', () => {
    const found = parseDetectorFile(real('speciesnet/ensemble.predictions.json'), 'african_elephants.jpg');
    expect(found).toMatchObject({ kind: 'speciesnet', entries: 2 });
    expect((found as { body: { predictions: { filepath: string }[] } }).body.predictions.map((p) => p.filepath)).toEqual(['test_data/african_elephants.jpg']);
  });

  it('says so when no entry names the photo, without sending anything', () => {
    expect(parseDetectorFile(real('megadetector/speciesnet-notebook-detections.md-format.json'), 'IMG_0001.JPG')).toEqual({
      kind: 'problem',
      problem: 'No entry for IMG_0001.JPG in this file (it names 2 other photos).',
    });
    expect(detectorBody({ predictions: [] }, 'a.jpg')).toEqual({ kind: 'problem', problem: 'This file names no photo.' });
  });

  it('sends a file of one entry as it is: the service takes it whatever its name', () => {
    const one = { images: [{ file: 'renamed.jpg', detections: [] }] };
    expect(detectorBody(one, 'IMG_0001.JPG')).toEqual({ kind: 'megadetector', body: one, entries: 1 });
  });

  it('takes our own list and object forms as they are', () => {
    const list = [{ bbox: [0, 0, 1, 1], score: 1, label: 'x' }];
    expect(detectorBody(list, 'a.jpg')).toEqual({ kind: 'own', body: list, entries: 1 });
    expect(detectorBody({ annotations: [] }, 'a.jpg')).toMatchObject({ kind: 'own' });
  });

  it('refuses what is not JSON or not a detector output, saying what it is', () => {
    expect(parseDetectorFile(real('megadetector/output-format-example.jsonc'), 'a.jpg')).toEqual({
      kind: 'problem',
      problem: 'This file is not JSON: import the .json output the detector wrote.',
    });
    expect(parseDetectorFile('{"something": 1}', 'a.jpg')).toMatchObject({ kind: 'problem', problem: expect.stringContaining('not a MegaDetector') });
  });

  it('says what an import did', () => {
    expect(importSummary('megadetector', 15, false)).toBe('Imported 15 boxes from MegaDetector.');
    expect(importSummary('speciesnet', 1, true)).toBe('Imported 1 box and a whole-image prediction from SpeciesNet.');
  });
});

describe('in German', () => {
  beforeAll(() => i18n.changeLanguage('de'));
  afterAll(() => i18n.changeLanguage('en'));

  it('says what an import did and what is missing', () => {
    expect(importSummary('megadetector', 1_500, false)).toBe('1.500 Boxen aus MegaDetector importiert.');
    expect(importSummary('own', 1, true)).toBe('1 Box und eine Vorhersage für das ganze Bild aus der Datei importiert.');
    expect(detectorBody({ predictions: [{ filepath: 'x/b.jpg' }, { filepath: 'c.jpg' }] }, 'a.jpg')).toEqual({
      kind: 'problem',
      problem: 'Kein Eintrag für a.jpg in dieser Datei (sie nennt 2 andere Fotos).',
    });
  });
});
