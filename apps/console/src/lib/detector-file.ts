import { i18n } from '../i18n';

/**
 * A detector output file a person imports for one photo: MegaDetector batch output
 * (`{images: [{file, detections}], detection_categories, …}`), SpeciesNet predictions
 * (`{predictions: [{filepath, …}]}`) or our own list or object form. The service reads it and
 * picks the photo's entry (its file name without folders, any case; a file of one entry as it
 * is). A batch file of a whole season is far larger than a request may be (1 MB; objects of at
 * most 500 members), so the console sends only what concerns the photo: the entries naming it
 * and the categories they use — by the service's own rule, so the choice is the same.
 */
export type DetectorFile =
  | { kind: 'megadetector' | 'speciesnet'; body: Record<string, unknown>; entries: number }
  | { kind: 'own'; body: unknown; entries: number }
  | { kind: 'problem'; problem: string };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
/** As the service compares them: the name after the last / or \, without regard to case. */
export const baseName = (path: string) => path.split(/[\\/]/).pop()!.toLowerCase();

/** The largest file read at all (a season's batch output of tens of thousands of photos fits). */
export const DETECTOR_FILE_MAX_BYTES = 200 * 1024 * 1024;

/** Only the members of a category map that the kept entries use (a classifier's has thousands). */
function usedCategories(map: unknown, used: Set<string>): unknown {
  if (!isObj(map)) return map;
  return Object.fromEntries(Object.entries(map).filter(([id]) => used.has(id)));
}

/** A MegaDetector entry's detections' category ids, and those of their classifications. */
function categoriesOf(entries: readonly unknown[]): { detection: Set<string>; classification: Set<string> } {
  const detection = new Set<string>();
  const classification = new Set<string>();
  for (const e of entries) {
    if (!isObj(e) || !Array.isArray(e.detections)) continue;
    for (const d of e.detections) {
      if (!isObj(d)) continue;
      detection.add(String(d.category));
      if (Array.isArray(d.classifications))
        for (const c of d.classifications) if (Array.isArray(c) && c.length > 0) classification.add(String(c[0] as string | number));
    }
  }
  return { detection, classification };
}

const noEntry = (filename: string, others: number) =>
  others === 0 ? i18n.t('cameraTraps.detector.noPhoto') : i18n.t('cameraTraps.detector.noEntry', { filename, count: others });

/**
 * Narrows a parsed file to the entries for the photo `filename`: the MegaDetector or SpeciesNet
 * kind, what to send, and how many entries the file held — or, when the file holds several and
 * none names the photo, the problem in words.
 */
export function detectorBody(parsed: unknown, filename: string): DetectorFile {
  const name = baseName(filename);
  if (isObj(parsed) && Array.isArray(parsed.images)) {
    const all = parsed.images;
    const kept = all.length === 1 ? all : all.filter((e) => isObj(e) && typeof e.file === 'string' && baseName(e.file) === name);
    if (kept.length === 0) return { kind: 'problem', problem: noEntry(filename, all.length) };
    const { detection, classification } = categoriesOf(kept);
    const body: Obj = { ...parsed, images: kept };
    // Without the detection categories the service assumes MegaDetector's own (animal, person, vehicle).
    if ('detection_categories' in parsed) body.detection_categories = usedCategories(parsed.detection_categories, detection);
    if ('classification_categories' in parsed) body.classification_categories = usedCategories(parsed.classification_categories, classification);
    if ('classification_category_descriptions' in parsed)
      body.classification_category_descriptions = usedCategories(parsed.classification_category_descriptions, classification);
    return { kind: 'megadetector', body, entries: all.length };
  }
  if (isObj(parsed) && Array.isArray(parsed.predictions)) {
    const all = parsed.predictions;
    const kept = all.length === 1 ? all : all.filter((e) => isObj(e) && typeof e.filepath === 'string' && baseName(e.filepath) === name);
    if (kept.length === 0) return { kind: 'problem', problem: noEntry(filename, all.length) };
    return { kind: 'speciesnet', body: { ...parsed, predictions: kept }, entries: all.length };
  }
  if (Array.isArray(parsed) || (isObj(parsed) && Array.isArray(parsed.annotations))) {
    return { kind: 'own', body: parsed, entries: 1 };
  }
  return {
    kind: 'problem',
    problem: i18n.t('cameraTraps.detector.notDetector'),
  };
}

/** A file's text as JSON, or the problem in words (a .jsonc with comments is not JSON). */
export function parseDetectorFile(text: string, filename: string): DetectorFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { kind: 'problem', problem: i18n.t('cameraTraps.detector.notJson') };
  }
  return detectorBody(parsed, filename);
}

/** What the import did, in words: the boxes read and where they came from. */
export function importSummary(kind: 'megadetector' | 'speciesnet' | 'own', boxes: number, hasPrediction: boolean): string {
  const from = kind === 'megadetector' ? 'MegaDetector' : kind === 'speciesnet' ? 'SpeciesNet' : i18n.t('cameraTraps.detector.fromFile');
  return hasPrediction
    ? i18n.t('cameraTraps.detector.importedWithPrediction', { count: boxes, from })
    : i18n.t('cameraTraps.detector.imported', { count: boxes, from });
}
