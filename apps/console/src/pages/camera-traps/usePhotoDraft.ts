import type { AnnotationWire, ImageDetailWire } from '@dts/domain';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useAnnotate, useImageLabels } from '../../hooks/images';
import {
  type BoxChange,
  type Draft,
  type DraftBox,
  type DraftPrediction,
  draftChanged,
  draftOf,
  draftProblems,
  draftRequest,
  editBox,
  editPrediction,
  newBox,
} from '../../lib/annotation-draft';
import { type Box, NEW_BOX } from '../../lib/box-geometry';
import { i18n } from '../../i18n';

const storedDraft = (d: ImageDetailWire) => draftOf(JSON.parse(d.meta.annotations) as AnnotationWire[], d.meta.prediction);

/**
 * A photo's annotations as a person edits them: the draft, the changes they make, saving (the
 * draft becomes what the service stored) and importing a detector's output. What is stored
 * changing meanwhile (the live feed) shows at once unless the person has changes of their own.
 */
export function usePhotoDraft(eui: string, hash: string, detail: ImageDetailWire) {
  const annotate = useAnnotate();
  const labels = useImageLabels();
  const storedKey = `${detail.meta.annotations}\n${JSON.stringify(detail.meta.prediction)}`;
  // The stored annotations' text identifies them: a refetch of the same is the same draft.
  const stored = useMemo(() => storedDraft(detail), [storedKey]);
  const [draft, setDraft] = useState<Draft>(stored);
  const [selected, setSelected] = useState<number | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  const shown = useRef(stored);

  useEffect(() => {
    if (shown.current === stored) return;
    setDraft((current) => (draftChanged(current, shown.current) ? current : stored));
    shown.current = stored;
  }, [stored]);

  const dirty = draftChanged(draft, stored);
  const latest = useRef({ draft, dirty });
  latest.current = { draft, dirty };

  // Closing or reloading the tab with unsaved changes: the browser asks first.
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const change = useCallback((update: (d: Draft) => Draft) => {
    setMessage(null);
    setDraft(update);
  }, []);
  const updateBox = useCallback(
    (key: number, edit: BoxChange | ((b: DraftBox) => DraftBox)) =>
      change((d) => ({ ...d, boxes: d.boxes.map((b) => (b.key !== key ? b : typeof edit === 'function' ? edit(b) : editBox(b, edit))) })),
    [change],
  );
  const addBox = useCallback(
    (bbox: Box = NEW_BOX) => {
      const box = newBox(bbox);
      change((d) => ({ ...d, boxes: [...d.boxes, box] }));
      setSelected(box.key);
      return box;
    },
    [change],
  );
  const removeBox = useCallback(
    (key: number) => {
      change((d) => ({ ...d, boxes: d.boxes.filter((b) => b.key !== key) }));
      setSelected((s) => (s === key ? null : s));
    },
    [change],
  );
  const setPrediction = useCallback(
    (next: Partial<DraftPrediction> | null) => change((d) => ({ ...d, prediction: next === null ? null : editPrediction(d.prediction, next) })),
    [change],
  );

  /** The answer of the annotate route as the draft, keeping the boxes' keys (and so the selection) where they line up. */
  const take = (answer: ImageDetailWire, before: Draft) => {
    const next = storedDraft(answer);
    const boxes = next.boxes.map((b, i) => ({ ...b, key: before.boxes.length === next.boxes.length ? before.boxes[i]!.key : b.key }));
    setDraft({ ...next, boxes });
    return { ...next, boxes };
  };

  /** Saves the draft (nothing to do when unchanged); false when it cannot be saved, with the problems shown. */
  const save = useCallback(async (): Promise<boolean> => {
    const { draft: current, dirty: changed } = latest.current;
    const found = draftProblems(current);
    setProblems(found);
    if (found.length > 0) return false;
    if (!changed) return true;
    try {
      take(await annotate.mutateAsync({ eui, hash, body: draftRequest(current) }), current);
      setMessage(i18n.t('cameraTraps.annotator.saved'));
      return true;
    } catch {
      return false;
    }
  }, [annotate, eui, hash]);

  /**
   * Sends a detector's output (already narrowed to this photo); the boxes it made become the
   * draft. A refusal is the import's to show (the panel's error is for saving).
   */
  const importOutput = useCallback(
    async (body: unknown): Promise<{ draft: Draft } | { error: unknown }> => {
      try {
        const answer = await annotate.mutateAsync({ eui, hash, body: body as Record<string, unknown> });
        setSelected(null);
        setProblems([]);
        return { draft: take(answer, { boxes: [], prediction: null }) };
      } catch (error) {
        annotate.reset();
        return { error };
      }
    },
    [annotate, eui, hash],
  );

  const discard = useCallback(() => {
    setDraft(stored);
    setProblems([]);
    setMessage(null);
    annotate.reset();
  }, [stored, annotate]);

  return {
    draft,
    stored,
    dirty,
    selected,
    setSelected,
    updateBox,
    addBox,
    removeBox,
    setPrediction,
    save,
    discard,
    importOutput,
    saving: annotate.isPending,
    error: annotate.error,
    problems,
    message,
    setMessage,
    used: labels.data ?? [],
  };
}

export type PhotoDraft = ReturnType<typeof usePhotoDraft>;
