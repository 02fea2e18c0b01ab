import type { ImageLabelWire, TaxonomyWire } from '@dts/domain';
import { Check, Cpu, Plus, Trash2, User, X } from 'lucide-react';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { ErrorBox } from '../../components/ui';
import {
  byPerson,
  confirmBox,
  type DraftBox,
  labelChange,
  percentScore,
  scorePercent,
  setTaxonomyLevel,
  suggestLabels,
  TAXONOMY_LEVELS,
  taxonomyOfLabel,
} from '../../lib/annotation-draft';
import { taxonomyName } from '../../lib/gallery';
import { AnnotatorFrame, type Elements, elementKey, type Focus, keep } from './AnnotatorFrame';
import { DetectorImport } from './DetectorImport';
import type { PhotoDraft } from './usePhotoDraft';

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Who made a box, for eyes (icon and colour) and for screen readers (words). */
function SourceBadge({ source }: { source: string | null }) {
  if (byPerson(source))
    return (
      <span className="badge badge-ok source-badge" title="Drawn, labelled or confirmed by a person">
        <User aria-hidden size={12} /> person
      </span>
    );
  if (source === null) return <span className="badge source-badge">source not recorded</span>;
  return (
    <span className="badge badge-info source-badge" title={`Made by ${source}`}>
      <Cpu aria-hidden size={12} /> {source}
    </span>
  );
}

/** The five taxonomy levels of a box or of the whole image, each a text field. */
function TaxonomyFields({ legend, taxonomy, onChange }: { legend: string; taxonomy: TaxonomyWire | null; onChange: (t: TaxonomyWire | null) => void }) {
  const id = useId();
  return (
    <fieldset className="taxonomy-fields">
      <legend>{legend}</legend>
      {TAXONOMY_LEVELS.map((level) => (
        <div className="field" key={level}>
          <label htmlFor={`${id}-${level}`}>{capital(level)}</label>
          <input
            id={`${id}-${level}`}
            value={taxonomy?.[level] ?? ''}
            maxLength={200}
            autoComplete="off"
            onChange={(e) => onChange(setTaxonomyLevel(taxonomy, level, e.target.value))}
          />
        </div>
      ))}
    </fieldset>
  );
}

/** One box in the list: its label (with suggestions), score and taxonomy, who made it; confirm or delete. */
function BoxRow({
  box,
  n,
  state,
  listId,
  onTyping,
  elements,
}: {
  box: DraftBox;
  n: number;
  state: PhotoDraft;
  listId: string;
  onTyping: (text: string) => void;
  elements: Elements;
}) {
  const { selected, setSelected, updateBox, removeBox, used } = state;
  const name = taxonomyName(box.taxonomy);
  return (
    <li className={`box-row${selected === box.key ? ' selected' : ''}`} data-box-row={n} onFocus={() => setSelected(box.key)}>
      <span className={`box-number ${byPerson(box.source) ? 'by-person' : 'by-detector'}`} aria-hidden>
        {n}
      </span>
      <div className="box-row-fields">
        <input
          ref={keep(elements, { key: box.key, where: 'label' })}
          aria-label={`Label of box ${n}`}
          list={listId}
          value={box.label}
          placeholder="Species or class"
          maxLength={100}
          autoComplete="off"
          onFocus={(e) => onTyping(e.target.value)}
          onChange={(e) => {
            onTyping(e.target.value);
            updateBox(box.key, labelChange(box, used, e.target.value));
          }}
        />
        <input
          className="score-input"
          aria-label={`Score of box ${n} (%)`}
          type="number"
          min={0}
          max={100}
          step={1}
          value={Number.isFinite(box.score) ? scorePercent(box.score) : ''}
          onChange={(e) => updateBox(box.key, { score: percentScore(e.target.value) })}
        />
        <span className="box-row-meta">
          <SourceBadge source={box.source} />
          {name ? <span className="muted small">{name}</span> : null}
        </span>
      </div>
      <div className="box-row-actions">
        {!byPerson(box.source) ? (
          <button
            type="button"
            className="small"
            aria-label={`Confirm box ${n} as correct`}
            title="Confirm: a person's, sure"
            onClick={() => updateBox(box.key, confirmBox)}
          >
            <Check aria-hidden size={14} />
          </button>
        ) : null}
        <button type="button" className="small" aria-label={`Remove box ${n}`} title="Remove the box" onClick={() => removeBox(box.key)}>
          <Trash2 aria-hidden size={14} />
        </button>
      </div>
    </li>
  );
}

/** The label, score and taxonomy of the whole image (no box): set, changed or cleared. */
function WholeImage({ state, listId, onTyping }: { state: PhotoDraft; listId: string; onTyping: (text: string) => void }) {
  const { draft, setPrediction, used } = state;
  const p = draft.prediction;
  if (!p)
    return (
      <div className="whole-image">
        <h3>Whole image</h3>
        <p className="muted small">No label for the photo as a whole.</p>
        <div className="button-row">
          <button type="button" className="small" onClick={() => setPrediction({ label: '' })}>
            Set a whole-image label
          </button>
          <button type="button" className="small" onClick={() => setPrediction({ label: 'blank', taxonomy: null })}>
            Blank (no animal)
          </button>
        </div>
      </div>
    );
  return (
    <div className="whole-image" data-prediction={p.label}>
      <h3>Whole image</h3>
      <div className="box-row-fields">
        <input
          aria-label="Whole-image label"
          list={listId}
          value={p.label}
          placeholder="Species, class or blank"
          maxLength={100}
          autoComplete="off"
          onFocus={(e) => onTyping(e.target.value)}
          onChange={(e) => {
            onTyping(e.target.value);
            setPrediction(labelChange(p, used, e.target.value));
          }}
        />
        <input
          className="score-input"
          aria-label="Whole-image score (%)"
          type="number"
          min={0}
          max={100}
          step={1}
          value={Number.isFinite(p.score) ? scorePercent(p.score) : ''}
          onChange={(e) => setPrediction({ score: percentScore(e.target.value) })}
        />
        <span className="box-row-meta">
          <SourceBadge source={p.source} />
          {taxonomyName(p.taxonomy) ? <span className="muted small">{taxonomyName(p.taxonomy)}</span> : null}
        </span>
      </div>
      <TaxonomyFields legend="Taxonomy of the whole image" taxonomy={p.taxonomy} onChange={(taxonomy) => setPrediction({ taxonomy })} />
      <button type="button" className="small" onClick={() => setPrediction(null)}>
        <X aria-hidden size={14} /> Clear the whole-image label
      </button>
    </div>
  );
}

/** Labels used on the account's photos (and in this draft), for every label field, best matches first. */
function LabelSuggestions({ id, used, state, typed }: { id: string; used: readonly ImageLabelWire[]; state: PhotoDraft; typed: string }) {
  return (
    <datalist id={id}>
      {suggestLabels(used, state.draft, typed).map((l) => (
        <option key={l.label} value={l.label}>
          {taxonomyName(l.taxonomy) ?? ''}
        </option>
      ))}
    </datalist>
  );
}

/** The editing panel beside the photo: the boxes, the whole image, save and discard. */
function AnnotationPanel({ state, elements, focus }: { state: PhotoDraft; elements: Elements; focus: (f: Focus) => void }) {
  const { draft, selected, updateBox, addBox, dirty, save, discard, saving, error, problems, message, used } = state;
  const listId = useId();
  const [typed, setTyped] = useState('');
  const selectedIndex = draft.boxes.findIndex((b) => b.key === selected);
  const selectedBox = draft.boxes[selectedIndex];
  return (
    <section className="card annotation-panel" aria-labelledby={`${listId}-title`}>
      <div className="card-head">
        <h2 id={`${listId}-title`}>Annotations</h2>
        <button type="button" className="small" onClick={() => focus({ key: addBox().key, where: 'box' })} aria-keyshortcuts="N">
          <Plus aria-hidden size={14} /> Add box
        </button>
      </div>
      <LabelSuggestions id={listId} used={used} state={state} typed={typed} />
      {draft.boxes.length > 0 ? (
        <ol className="box-list" aria-label="Detections">
          {draft.boxes.map((b, i) => (
            <BoxRow key={b.key} box={b} n={i + 1} state={state} listId={listId} onTyping={setTyped} elements={elements} />
          ))}
        </ol>
      ) : (
        <p className="muted">No boxes. Drag on the photo to draw one, or press N.</p>
      )}
      {selectedBox ? (
        <TaxonomyFields
          legend={`Taxonomy of box ${selectedIndex + 1}`}
          taxonomy={selectedBox.taxonomy ?? taxonomyOfLabel(used, selectedBox.label)}
          onChange={(taxonomy) => updateBox(selectedBox.key, { taxonomy })}
        />
      ) : null}
      <WholeImage state={state} listId={listId} onTyping={setTyped} />
      <div className="annotation-actions">
        <button type="button" className="primary" onClick={() => void save()} disabled={!dirty || saving} aria-keyshortcuts="Control+S">
          {saving ? 'Saving…' : 'Save'}
        </button>
        <button type="button" className="ghost" onClick={discard} disabled={!dirty || saving}>
          Discard changes
        </button>
        <span role="status" className={dirty ? 'unsaved' : 'muted'} data-annotation-state={dirty ? 'unsaved' : 'saved'}>
          {dirty ? 'Unsaved changes' : (message ?? '')}
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
export function PhotoAnnotator({ state, src, alt, filename, side }: { state: PhotoDraft; src: string; alt: string; filename: string; side: ReactNode }) {
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
