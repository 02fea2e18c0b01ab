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
  sourceText,
  suggestLabels,
  TAXONOMY_LEVELS,
} from '../../lib/annotation-draft';
import { useTranslation } from '../../i18n';
import { taxonomyName } from '../../lib/gallery';
import { type Elements, keep } from './AnnotatorFrame';
import type { PhotoDraft } from './usePhotoDraft';

/* The fields of the annotation panel: a box's row, the whole image's label, taxonomy and label suggestions. */

/** Who made a box, for eyes (icon and colour) and for screen readers (words). */
export function SourceBadge({ source }: { source: string | null }) {
  const { t } = useTranslation();
  if (byPerson(source))
    return (
      <span className="badge badge-ok source-badge" title={t('cameraTraps.fields.personTitle')}>
        <User aria-hidden size={12} /> {t('cameraTraps.fields.person')}
      </span>
    );
  if (source === null) return <span className="badge source-badge">{sourceText(null)}</span>;
  return (
    <span className="badge badge-info source-badge" title={t('cameraTraps.fields.madeBy', { source })}>
      <Cpu aria-hidden size={12} /> {source}
    </span>
  );
}

/** The five taxonomy levels of a box or of the whole image, each a text field. */
export function TaxonomyFields({ legend, taxonomy, onChange }: { legend: string; taxonomy: TaxonomyWire | null; onChange: (t: TaxonomyWire | null) => void }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <fieldset className="taxonomy-fields">
      <legend>{legend}</legend>
      {TAXONOMY_LEVELS.map((level) => (
        <div className="field" key={level}>
          <label htmlFor={`${id}-${level}`}>{t(`cameraTraps.fields.levels.${level}`)}</label>
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
  const { t } = useTranslation();
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
          aria-label={t('cameraTraps.fields.boxLabel', { n })}
          list={listId}
          value={box.label}
          placeholder={t('cameraTraps.fields.boxLabelPlaceholder')}
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
          aria-label={t('cameraTraps.fields.boxScore', { n })}
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
            aria-label={t('cameraTraps.fields.confirm', { n })}
            title={t('cameraTraps.fields.confirmTitle')}
            onClick={() => updateBox(box.key, confirmBox)}
          >
            <Check aria-hidden size={14} />
          </button>
        ) : null}
        <button
          type="button"
          className="small"
          aria-label={t('cameraTraps.fields.remove', { n })}
          title={t('cameraTraps.fields.removeTitle')}
          onClick={() => removeBox(box.key)}
        >
          <Trash2 aria-hidden size={14} />
        </button>
      </div>
    </li>
  );
}

/** The label, score and taxonomy of the whole image (no box): set, changed or cleared. */
export function WholeImage({ state, listId, onTyping }: { state: PhotoDraft; listId: string; onTyping: (text: string) => void }) {
  const { t } = useTranslation();
  const { draft, setPrediction, used } = state;
  const p = draft.prediction;
  if (!p)
    return (
      <div className="whole-image">
        <h3>{t('cameraTraps.fields.wholeImage')}</h3>
        <p className="muted small">{t('cameraTraps.fields.noWholeLabel')}</p>
        <div className="button-row">
          <button type="button" className="small" onClick={() => setPrediction({ label: '' })}>
            {t('cameraTraps.fields.setWhole')}
          </button>
          <button type="button" className="small" onClick={() => setPrediction({ label: 'blank', taxonomy: null })}>
            {t('cameraTraps.fields.blank')}
          </button>
        </div>
      </div>
    );
  return (
    <div className="whole-image" data-prediction={p.label}>
      <h3>{t('cameraTraps.fields.wholeImage')}</h3>
      <div className="box-row-fields">
        <input
          aria-label={t('cameraTraps.fields.wholeLabel')}
          list={listId}
          value={p.label}
          placeholder={t('cameraTraps.fields.wholeLabelPlaceholder')}
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
          aria-label={t('cameraTraps.fields.wholeScore')}
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
      <TaxonomyFields legend={t('cameraTraps.fields.wholeTaxonomy')} taxonomy={p.taxonomy} onChange={(taxonomy) => setPrediction({ taxonomy })} />
      <button type="button" className="small" onClick={() => setPrediction(null)}>
        <X aria-hidden size={14} /> {t('cameraTraps.fields.clearWhole')}
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
