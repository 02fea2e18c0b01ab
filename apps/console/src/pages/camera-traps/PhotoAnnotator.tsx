import { Plus } from 'lucide-react';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { ErrorBox } from '../../components/ui';
import { useTranslation } from '../../i18n';
import { scorePercent, sourceText, taxonomyOfLabel } from '../../lib/annotation-draft';
import { AnnotatedPhoto, AnnotatorFrame, type Elements, elementKey, type Focus } from './AnnotatorFrame';
import { BoxRow, LabelSuggestions, TaxonomyFields, WholeImage } from './AnnotationFields';
import { DetectorImport } from './DetectorImport';
import type { PhotoDraft } from './usePhotoDraft';

/** The editing panel beside the photo: the boxes, the whole image, save and discard. */
function AnnotationPanel({ state, elements, focus }: { state: PhotoDraft; elements: Elements; focus: (f: Focus) => void }) {
  const { t } = useTranslation();
  const { draft, selected, updateBox, addBox, dirty, save, discard, saving, error, problems, message, used } = state;
  const listId = useId();
  const [typed, setTyped] = useState('');
  const selectedIndex = draft.boxes.findIndex((b) => b.key === selected);
  const selectedBox = draft.boxes[selectedIndex];
  return (
    <section className="card annotation-panel" aria-labelledby={`${listId}-title`}>
      <div className="card-head">
        <h2 id={`${listId}-title`}>{t('cameraTraps.annotator.title')}</h2>
        <button type="button" className="small" onClick={() => focus({ key: addBox().key, where: 'box' })} aria-keyshortcuts="N">
          <Plus aria-hidden size={14} /> {t('cameraTraps.annotator.addBox')}
        </button>
      </div>
      <LabelSuggestions id={listId} used={used} state={state} typed={typed} />
      {draft.boxes.length > 0 ? (
        <ol className="box-list" aria-label={t('cameraTraps.annotator.detections')}>
          {draft.boxes.map((b, i) => (
            <BoxRow key={b.key} box={b} n={i + 1} state={state} listId={listId} onTyping={setTyped} elements={elements} />
          ))}
        </ol>
      ) : (
        <p className="muted">{t('cameraTraps.annotator.noBoxes')}</p>
      )}
      {selectedBox ? (
        <TaxonomyFields
          legend={t('cameraTraps.annotator.boxTaxonomy', { n: selectedIndex + 1 })}
          taxonomy={selectedBox.taxonomy ?? taxonomyOfLabel(used, selectedBox.label)}
          onChange={(taxonomy) => updateBox(selectedBox.key, { taxonomy })}
        />
      ) : null}
      <WholeImage state={state} listId={listId} onTyping={setTyped} />
      <div className="annotation-actions">
        <button type="button" className="primary" onClick={() => void save()} disabled={!dirty || saving} aria-keyshortcuts="Control+S">
          {saving ? t('cameraTraps.annotator.saving') : t('cameraTraps.annotator.save')}
        </button>
        <button type="button" className="ghost" onClick={discard} disabled={!dirty || saving}>
          {t('cameraTraps.annotator.discard')}
        </button>
        <span role="status" className={dirty ? 'unsaved' : 'muted'} data-annotation-state={dirty ? 'unsaved' : 'saved'}>
          {dirty ? t('cameraTraps.annotator.unsaved') : (message ?? '')}
        </span>
      </div>
      {problems.length > 0 ? (
        <ul className="problems error-box" role="alert">
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      ) : null}
      <ErrorBox error={error} />
    </section>
  );
}

const typing = (target: EventTarget | null) => target instanceof HTMLElement && (/^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) || target.isContentEditable);

/**
 * The photo page's annotation: the photo with its boxes, the editing panel and the detector
 * import; `side` (the photo's facts) goes below them. N adds a box anywhere on the page but in a field.
 */
export function PhotoAnnotator({
  state,
  src,
  alt,
  filename,
  side,
  readOnly = false,
}: {
  state: PhotoDraft;
  src: string;
  alt: string;
  filename: string;
  side: ReactNode;
  /** Looked at, not annotated: a viewer gets the boxes and labels without a control it cannot use. */
  readOnly?: boolean;
}) {
  if (readOnly) return <ReadOnlyPhoto state={state} src={src} alt={alt} side={side} />;
  return <EditablePhoto state={state} src={src} alt={alt} filename={filename} side={side} />;
}

function ReadOnlyPhoto({ state, src, alt, side }: { state: PhotoDraft; src: string; alt: string; side: ReactNode }) {
  const { t } = useTranslation();
  const { boxes, prediction } = state.draft;
  return (
    <div className="photo-layout">
      <AnnotatedPhoto boxes={boxes} src={src} alt={alt} />
      <div className="photo-side">
        <section className="card annotation-panel" aria-label={t('cameraTraps.annotator.title')}>
          <div className="card-head">
            <h2>{t('cameraTraps.annotator.title')}</h2>
          </div>
          {boxes.length > 0 ? (
            <ol className="box-list" aria-label={t('cameraTraps.annotator.detections')}>
              {boxes.map((b) => (
                <li key={b.key}>
                  {t('cameraTraps.annotator.readOnlyBox', { label: b.label || t('cameraTraps.annotator.noLabel'), source: sourceText(b.source) })}
                </li>
              ))}
            </ol>
          ) : (
            <p className="muted">{t('cameraTraps.annotator.noBoxesReadOnly')}</p>
          )}
          {prediction ? <p>{t('cameraTraps.annotator.readOnlyWhole', { label: prediction.label, percent: scorePercent(prediction.score) })}</p> : null}
          <p className="muted small">{t('cameraTraps.annotator.readOnlyNote')}</p>
        </section>
        {side}
      </div>
    </div>
  );
}

function EditablePhoto({ state, src, alt, filename, side }: { state: PhotoDraft; src: string; alt: string; filename: string; side: ReactNode }) {
  const elements = useRef(new Map<string, HTMLElement>());
  const [focusing, focus] = useState<Focus | null>(null);
  // After the render that shows it: a new box, or its label field, takes the keyboard.
  useEffect(() => {
    if (!focusing) return;
    elements.current.get(elementKey(focusing))?.focus();
    focus(null);
  }, [focusing, state.draft]);

  const { addBox } = state;
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
      if (e.key !== 'n' && e.key !== 'N') return;
      e.preventDefault();
      focus({ key: addBox().key, where: 'box' });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [addBox]);

  return (
    <div className="photo-layout">
      <AnnotatorFrame state={state} src={src} alt={alt} focus={focus} elements={elements} />
      <div className="photo-side">
        <AnnotationPanel state={state} elements={elements} focus={focus} />
        <DetectorImport state={state} filename={filename} />
        {side}
      </div>
    </div>
  );
}
