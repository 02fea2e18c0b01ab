import type { ImageLabelWire, TaxonomyWire } from '@dts/domain';
import { Check, Cpu, Trash2, User, X } from 'lucide-react';
import { useId } from 'react';
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
} from '../../lib/annotation-draft';
import { taxonomyName } from '../../lib/gallery';
import { type Elements, keep } from './AnnotatorFrame';
import type { PhotoDraft } from './usePhotoDraft';

/* The fields of the annotation panel: a box's row, the whole image's label, taxonomy and label suggestions. */

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Who made a box, for eyes (icon and colour) and for screen readers (words). */
export function SourceBadge({ source }: { source: string | null }) {
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
export function TaxonomyFields({ legend, taxonomy, onChange }: { legend: string; taxonomy: TaxonomyWire | null; onChange: (t: TaxonomyWire | null) => void }) {
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
export function BoxRow({
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
export function WholeImage({ state, listId, onTyping }: { state: PhotoDraft; listId: string; onTyping: (text: string) => void }) {
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
export function LabelSuggestions({ id, used, state, typed }: { id: string; used: readonly ImageLabelWire[]; state: PhotoDraft; typed: string }) {
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
