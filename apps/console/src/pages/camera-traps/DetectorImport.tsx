import { useState } from 'react';
import { errorText } from '../../api/client';
import { DropZone } from '../../components/DropZone';
import { byPerson } from '../../lib/annotation-draft';
import { DETECTOR_FILE_MAX_BYTES, type DetectorFile, importSummary, parseDetectorFile } from '../../lib/detector-file';
import { useTranslation } from '../../i18n';
import type { PhotoDraft } from './usePhotoDraft';
import { Notice } from '../../components/ui';

/**
 * A MegaDetector or SpeciesNet output file, picked or dropped: narrowed to this photo's entry and
 * sent; its boxes replace the photo's. Replacing a person's work asks first.
 */
export function DetectorImport({ state, filename }: { state: PhotoDraft; filename: string }) {
  const { t } = useTranslation();
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
    if (file.size > DETECTOR_FILE_MAX_BYTES)
      return setProblem(t('cameraTraps.detector.tooLarge', { name: file.name, mb: DETECTOR_FILE_MAX_BYTES / 1024 / 1024 }));
    if (dirty) return setProblem(t('cameraTraps.detector.dirty'));
    const found = parseDetectorFile(await file.text(), filename);
    if (found.kind === 'problem') return setProblem(found.problem);
    if (people > 0) return setPending(found);
    await send(found);
  };

  return (
    <section className="card detector-import" aria-labelledby="detector-import-title">
      <h2 id="detector-import-title">{t('cameraTraps.detector.title')}</h2>
      <DropZone
        onFiles={(files) => void take(files)}
        disabled={saving}
        what={t('cameraTraps.detector.what')}
        accept="application/json,.json"
        multiple={false}
        inputLabel={t('cameraTraps.detector.inputLabel')}
        testId="detector-dropzone"
        hint={t('cameraTraps.detector.hint', { filename })}
      />
      {pending ? (
        <div className="notice" role="alert">
          <p>{t('cameraTraps.detector.replaces', { count: people })}</p>
          <div className="button-row">
            <button type="button" className="small danger" onClick={() => void send(pending)}>
              {t('cameraTraps.detector.replace')}
            </button>
            <button type="button" className="small" onClick={() => setPending(null)}>
              {t('cameraTraps.detector.cancel')}
            </button>
          </div>
        </div>
      ) : null}
      {problem ? (
        <p className="error-box" role="alert">
          {problem}
        </p>
      ) : null}
      <Notice text={done} />
    </section>
  );
}
