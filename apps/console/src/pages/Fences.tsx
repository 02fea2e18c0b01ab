import { FENCE_NAME_MAX_LENGTH, type FenceWire, type GeoJsonPolygon } from '@dts/domain';
import { Pencil, Plus } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { Link } from 'wouter';
import { fieldError } from '../api/client';
import { ConfirmButton } from '../components/ConfirmButton';
import { FenceMap, type FenceMapMode } from '../components/FenceMap';
import { TextField } from '../components/form';
import { Card, Empty, ErrorBox, Loading, Notice, PageHeader } from '../components/ui';
import { useCreateFence, useDeleteFence, useFenceDevices, useFences, useUpdateFence } from '../hooks/fences';
import { cornerCount, parsePolygonText } from '../lib/fence-geometry';
import { useTranslation } from '../i18n';
import { utcText } from '../lib/format';
import { useCan } from '../api/organisation';

/** A shape being made or changed: its name and polygon, and the GeoJSON text beside the map (the keyboard's way). */
interface Draft {
  uid: number | null;
  name: string;
  polygon: GeoJsonPolygon | null;
  text: string;
  textProblem: string | null;
}

const newDraft = (fence?: FenceWire): Draft => ({
  uid: fence?.uid ?? null,
  name: fence?.name ?? '',
  polygon: fence?.geometry ?? null,
  text: fence ? JSON.stringify(fence.geometry) : '',
  textProblem: null,
});

/** Geofences: drawn and reshaped on the map (or typed as GeoJSON), listed, deleted; the devices inside each. */
export function FencesPage() {
  const { t } = useTranslation();
  // A viewer sees the fences and what is inside them, not controls it cannot use.
  const operator = useCan('operator');
  const fences = useFences();
  const create = useCreateFence();
  const update = useUpdateFence();
  const remove = useDeleteFence();
  const [selected, setSelected] = useState<number | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [notice, setNotice] = useState('');
  const list = fences.data ?? [];
  const current = list.find((f) => f.uid === selected) ?? null;
  const inside = useFenceDevices(draft ? null : selected);
  useEffect(() => {
    if (selected === null && list[0]) setSelected(list[0].uid);
  }, [list, selected]);

  const mode: FenceMapMode = !draft
    ? { kind: 'view' }
    : draft.uid === null
      ? draft.polygon
        ? { kind: 'view' }
        : { kind: 'draw' }
      : { kind: 'edit', uid: draft.uid };
  const error = create.error ?? update.error;
  const setPolygon = (polygon: GeoJsonPolygon) => setDraft((d) => (d ? { ...d, polygon, text: JSON.stringify(polygon), textProblem: null } : d));
  const save = (event: FormEvent) => {
    event.preventDefault();
    if (!draft) return;
    const parsed = parsePolygonText(draft.text);
    if ('problem' in parsed) {
      setDraft({ ...draft, textProblem: draft.text ? parsed.problem : t('fences.form.missing') });
      return;
    }
    const body = { name: draft.name.trim(), geometry: parsed.polygon };
    const done = (fence: FenceWire) => {
      setDraft(null);
      setSelected(fence.uid);
      setNotice(t('fences.saved', { name: fence.name }));
    };
    if (draft.uid === null) create.mutate(body, { onSuccess: done });
    else update.mutate({ uid: draft.uid, body }, { onSuccess: done });
  };

  return (
    <>
      <PageHeader
        title={t('fences.title')}
        subtitle={t('fences.subtitle')}
        actions={
          !draft && operator ? (
            <button
              type="button"
              className="primary"
              onClick={() => {
                setNotice('');
                create.reset();
                setDraft(newDraft());
              }}
            >
              <Plus aria-hidden size={16} /> {t('fences.add')}
            </button>
          ) : null
        }
      />
      <Notice text={notice} />
      <ErrorBox error={fences.error} />
      <div className="fence-layout">
        <div>
          {fences.isPending ? <Loading what={t('fences.loading')} /> : null}
          <FenceMap
            label={t('fences.mapLabel')}
            fences={
              draft && draft.uid === null && draft.polygon
                ? [...list, { uid: -1, name: draft.name || t('fences.form.newTitle'), geometry: draft.polygon, created_unix: 0 }]
                : list
            }
            selected={draft ? (draft.uid ?? -1) : selected}
            draft={draft?.polygon ?? null}
            devices={draft ? [] : (inside.data ?? [])}
            mode={mode}
            onSelect={(uid) => !draft && uid > 0 && setSelected(uid)}
            onDrawn={setPolygon}
            onEdited={setPolygon}
          />
          {mode.kind === 'draw' ? (
            <p className="muted small" role="status">
              {t('fences.drawHelp')}
            </p>
          ) : mode.kind === 'edit' ? (
            <p className="muted small" role="status">
              {t('fences.editHelp')}
            </p>
          ) : null}
        </div>
        <div className="fence-side">
          {draft ? (
            <Card
              title={
                draft.uid === null
                  ? t('fences.form.newTitle')
                  : current
                    ? t('fences.form.editTitle', { name: current.name })
                    : t('fences.form.editTitleUnnamed')
              }
              id="fence-form"
            >
              <form onSubmit={save} noValidate>
                <TextField
                  label={t('fences.form.name')}
                  required
                  maxLength={FENCE_NAME_MAX_LENGTH}
                  value={draft.name}
                  onChange={(e) => setDraft({ ...draft, name: e.target.value })}
                  error={fieldError(error, 'name')}
                />
                <div className={`field${draft.textProblem || fieldError(error, 'geometry') ? ' field-invalid' : ''}`}>
                  <label htmlFor="fence-geojson">{t('fences.form.shape')}</label>
                  <textarea
                    id="fence-geojson"
                    rows={5}
                    className="mono small"
                    value={draft.text}
                    aria-describedby="fence-geojson-hint"
                    aria-invalid={draft.textProblem || fieldError(error, 'geometry') ? true : undefined}
                    onChange={(e) => {
                      const parsed = parsePolygonText(e.target.value);
                      setDraft({ ...draft, text: e.target.value, polygon: 'polygon' in parsed ? parsed.polygon : draft.polygon, textProblem: null });
                    }}
                  />
                  <small id="fence-geojson-hint" className="hint">
                    {draft.polygon ? t('fences.form.hintCorners', { count: cornerCount(draft.polygon) }) : t('fences.form.hint')}
                  </small>
                  {draft.textProblem || fieldError(error, 'geometry') ? (
                    <small className="field-error">{draft.textProblem ?? fieldError(error, 'geometry')}</small>
                  ) : null}
                </div>
                <ErrorBox error={error} />
                <div className="dialog-actions">
                  {draft.uid === null && draft.polygon ? (
                    <button type="button" className="ghost" onClick={() => setDraft({ ...draft, polygon: null, text: '' })}>
                      {t('fences.form.drawAgain')}
                    </button>
                  ) : null}
                  <button
                    type="button"
                    className="ghost"
                    onClick={() => {
                      setDraft(null);
                      create.reset();
                      update.reset();
                    }}
                  >
                    {t('fences.form.cancel')}
                  </button>
                  <button type="submit" className="primary" disabled={create.isPending || update.isPending}>
                    {t('fences.form.save')}
                  </button>
                </div>
              </form>
            </Card>
          ) : null}
          <Card title={t('fences.list.title')} id="fence-list">
            {list.length === 0 && !fences.isPending ? <Empty>{t('fences.list.empty')}</Empty> : null}
            <ul className="fence-list">
              {list.map((f) => (
                <li key={f.uid} className={f.uid === selected ? 'selected' : undefined}>
                  <button
                    type="button"
                    className="link-button"
                    aria-pressed={f.uid === selected}
                    onClick={() => !draft && setSelected(f.uid)}
                    disabled={!!draft}
                  >
                    {f.name}
                  </button>
                  <span className="muted small">{t('fences.list.meta', { count: cornerCount(f.geometry), made: utcText(f.created_unix) })}</span>
                  {!draft && operator ? (
                    <span className="row-actions">
                      <button
                        type="button"
                        className="small"
                        aria-label={t('fences.list.editLabel', { name: f.name })}
                        onClick={() => {
                          setNotice('');
                          update.reset();
                          setSelected(f.uid);
                          setDraft(newDraft(f));
                        }}
                      >
                        <Pencil aria-hidden size={14} /> {t('fences.list.edit')}
                      </button>
                      <ConfirmButton
                        label={t('fences.list.delete')}
                        confirm={t('fences.list.confirmDelete', { name: f.name })}
                        pending={remove.isPending}
                        onConfirm={() =>
                          remove.mutate(f.uid, {
                            onSuccess: () => {
                              setNotice(t('fences.deleted', { name: f.name }));
                              if (selected === f.uid) setSelected(null);
                            },
                          })
                        }
                      />
                    </span>
                  ) : null}
                </li>
              ))}
            </ul>
            <ErrorBox error={remove.error} />
          </Card>
          {current && !draft ? (
            <Card title={t('fences.inside.title', { name: current.name })} id="fence-devices">
              {inside.isPending ? <Loading what={t('fences.inside.loading')} /> : null}
              <ErrorBox error={inside.error} />
              {inside.data && inside.data.length === 0 ? <Empty>{t('fences.inside.empty')}</Empty> : null}
              <ul className="plain-list">
                {inside.data?.map((d) => (
                  <li key={d.devEUI}>
                    <Link href={`/devices/${d.devEUI}`}>{d.label || d.devEUI}</Link>{' '}
                    <span className="muted small">{d.position === 'reported' ? t('fences.inside.reported') : t('fences.inside.installation')}</span>
                  </li>
                ))}
              </ul>
            </Card>
          ) : null}
        </div>
      </div>
    </>
  );
}
