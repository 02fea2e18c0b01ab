import { useState } from 'react';
import { errorText } from '../../api/client';
import { DropZone } from '../../components/DropZone';
import { byPerson } from '../../lib/annotation-draft';
import { DETECTOR_FILE_MAX_BYTES, type DetectorFile, importSummary, parseDetectorFile } from '../../lib/detector-file';
import { plural } from '../../lib/format';
import type { PhotoDraft } from './usePhotoDraft';

/**
 * A MegaDetector or SpeciesNet output file, picked or dropped: narrowed to this photo's entry and
 * sent; its boxes replace the photo's. Replacing a person's work asks first.
 */
export function DetectorImport({ state, filename }: { state: PhotoDraft; filename: string }) {
  const { dirty, stored, importOutput, saving, setMessage } = state;
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [pending, setPending] = useState<(DetectorFile & { kind: 'megadetector' | 'speciesnet' | 'own' }) | null>(null);
  const people = stored.boxes.filter((b) => byPerson(b.source)).length + (stored.prediction && byPerson(stored.prediction.source) ? 1 : 0);

  const send = async (found: DetectorFile & { kind: 'megadetector' | 'speciesnet' | 'own' }) => {
    setPending(null);
    const result = await importOutput(found.body);
    if ('error' in result) return setProblem(errorText(result.error));
    setDone(importSummary(found.kind, result.draft.boxes.length, result.draft.prediction !== null));
    setMessage(null);
  };
  const take = async (files: File[]) => {
    setProblem(null);
    setDone(null);
    setPending(null);
    const file = files[0];
    if (!file) return;
    if (file.size > DETECTOR_FILE_MAX_BYTES) return setProblem(`${file.name} is larger than ${DETECTOR_FILE_MAX_BYTES / 1024 / 1024} MB.`);
    if (dirty) return setProblem('Save or discard your changes first: an import replaces the photo’s annotations.');
    const found = parseDetectorFile(await file.text(), filename);
    if (found.kind === 'problem') return setProblem(found.problem);
    if (people > 0) return setPending(found);
    await send(found);
  };

  return (
    <section className="card detector-import" aria-labelledby="detector-import-title">
      <h2 id="detector-import-title">Import detector output</h2>
      <DropZone
        onFiles={(files) => void take(files)}
        disabled={saving}
        what="a MegaDetector or SpeciesNet output file"
        accept="application/json,.json"
        multiple={false}
        inputLabel="Detector output file"
        testId="detector-dropzone"
        hint={`The entry for ${filename} is taken; its boxes replace the photo’s.`}
      />
      {pending ? (
        <div className="notice" role="alert">
          <p>This replaces {people === 1 ? 'an annotation' : plural(people, 'annotation')} a person made on this photo. </p>
          <div className="button-row">
            <button type="button" className="small danger" onClick={() => void send(pending)}>
              Replace them
            </button>
            <button type="button" className="small" onClick={() => setPending(null)}>
              Cancel
            </button>
          </div>
        </div>
      ) : null}
      {problem ? (
        <p className="error-box" role="alert">
          {problem}
        </p>
      ) : null}
      {done ? (
        <p className="notice" role="status">
          {done}
        </p>
      ) : null}
    </section>
  );
}
