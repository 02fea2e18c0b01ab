import type { ImageDetailWire } from '@dts/domain';
import { ApiError } from '@dts/client';
import { ChevronLeft, ChevronRight, Trash2 } from 'lucide-react';
import { useEffect, useMemo, useRef } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorBox, Loading, PageHeader } from '../../components/ui';
import { useDeleteImage, useGallery, useImage } from '../../hooks/images';
import { useTranslation } from '../../i18n';
import { type Neighbours, neighbours, readGalleryFilter, statusText } from '../../lib/gallery';
import { count as formatCount, num, utcText } from '../../lib/format';
import { PhotoAnnotator } from './PhotoAnnotator';
import { usePhotoDraft } from './usePhotoDraft';
import { useCan } from '../../api/organisation';

/** The signed link's path and query: the file comes from this origin whatever PUBLIC_BASE_URL names (the CSP allows 'self'). */
const sameOrigin = (url: string) => {
  const u = new URL(url, window.location.origin);
  return `${u.pathname}${u.search}`;
};

function details(d: ImageDetailWire): { width?: number; height?: number; size?: number; error?: string } {
  try {
    return d.meta.image_details ? (JSON.parse(d.meta.image_details) as ReturnType<typeof details>) : {};
  } catch {
    return {};
  }
}

/**
 * One photo, its boxes drawn over it and edited in place; ← and → step through the gallery as
 * filtered, Escape goes back to it — saving the person's changes first (Ctrl + S saves at once).
 */
export function PhotoPage({ eui, hash }: { eui: string; hash: string }) {
  const { t } = useTranslation();
  const search = useSearch();
  const back = `/camera-traps${search ? `?${search}` : ''}`;
  const image = useImage(eui, hash);
  const gallery = useGallery(readGalleryFilter(search));
  const list = useMemo(() => gallery.data?.pages.flatMap((p) => p.images) ?? [], [gallery.data]);
  // Where the photo stood in the list: ← and → go on from there once a new label takes it out of the filter.
  const remembered = useRef<{ photo: string; around: Neighbours<(typeof list)[number]> } | null>(null);
  const photo = `${eui}/${hash}`;
  const around = neighbours(list, { hash, devEUI: eui }, remembered.current?.photo === photo ? remembered.current.around : null);
  if (around.position !== -1) remembered.current = { photo, around };
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = gallery;

  // The last loaded photo: the next page is fetched so that → goes on.
  useEffect(() => {
    if (list.length > 0 && list.at(-1)?.hash === hash && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [list, hash, hasNextPage, isFetchingNextPage, fetchNextPage]);

  if (image.isPending) return <Loading what={t('cameraTraps.photo.loading')} />;
  if (image.error instanceof ApiError && image.error.status === 404)
    return (
      <section className="card">
        <h1>{t('cameraTraps.photo.notFound')}</h1>
        <p>
          {t('cameraTraps.photo.notFoundText')} <Link href={back}>{t('cameraTraps.photo.back')}</Link>
        </p>
      </section>
    );
  if (!image.data) return <ErrorBox error={image.error} />;
  return (
    <PhotoView
      // A photo of its own: its draft, selection and messages start anew.
      key={`${eui}/${hash}`}
      eui={eui}
      hash={hash}
      detail={image.data}
      around={around}
      count={{ loaded: list.length, more: hasNextPage }}
      search={search}
      back={back}
    />
  );
}

function PhotoView({
  eui,
  hash,
  detail: d,
  around,
  count,
  search,
  back,
}: {
  eui: string;
  hash: string;
  detail: ImageDetailWire;
  around: Neighbours<{ hash: string; devEUI: string }>;
  count: { loaded: number; more: boolean };
  search: string;
  back: string;
}) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const remove = useDeleteImage();
  const draft = usePhotoDraft(eui, hash, d);
  const { previous, next, position } = around;
  const href = (target: { devEUI: string; hash: string }) => `/camera-traps/${target.devEUI}/${target.hash}${search ? `?${search}` : ''}`;
  /** Leaves the photo once the person's changes are saved; stays, showing why, when they cannot be. */
  const leave = async (to: string) => {
    if (await draft.save()) navigate(to);
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 's') {
        e.preventDefault();
        void draft.save();
        return;
      }
      // A box or a field that took the key keeps it (arrows nudge a box, Escape leaves a field).
      const target = e.target as HTMLElement | null;
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
      if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
      if (e.key === 'ArrowLeft' && previous) void leave(href(previous));
      else if (e.key === 'ArrowRight' && next) void leave(href(next));
      else if (e.key === 'Escape') void leave(back);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const operator = useCan('operator');
  const info = details(d);
  const step = (target: { devEUI: string; hash: string }, label: 'Previous' | 'Next') => (
    <Link
      href={href(target)}
      className="button"
      aria-keyshortcuts={label === 'Previous' ? 'ArrowLeft' : 'ArrowRight'}
      onClick={(e) => {
        if (!draft.dirty) return;
        e.preventDefault();
        void leave(href(target));
      }}
    >
      {label === 'Previous' ? <ChevronLeft aria-hidden size={16} /> : null}{' '}
      {label === 'Previous' ? t('cameraTraps.photo.previous') : t('cameraTraps.photo.next')} {label === 'Next' ? <ChevronRight aria-hidden size={16} /> : null}
    </Link>
  );
  return (
    <>
      <nav aria-label={t('cameraTraps.photo.breadcrumb')} className="breadcrumb">
        <Link href={back}>{t('cameraTraps.title')}</Link> / <span aria-current="page">{d.meta.filename}</span>
      </nav>
      <PageHeader
        title={d.meta.filename}
        subtitle={
          position >= 0
            ? t('cameraTraps.photo.subtitlePosition', {
                when: utcText(d.meta.ts_photo_unix),
                position: position + 1,
                loaded: `${formatCount(count.loaded)}${count.more ? '+' : ''}`,
              })
            : t('cameraTraps.photo.subtitle', { when: utcText(d.meta.ts_photo_unix) })
        }
        actions={
          <>
            {previous ? step(previous, 'Previous') : null}
            {next ? step(next, 'Next') : null}
            {operator ? (
              <ConfirmButton
                label={
                  <>
                    <Trash2 aria-hidden size={14} /> {t('cameraTraps.photo.delete')}
                  </>
                }
                confirm={t('cameraTraps.photo.confirmDelete')}
                pending={remove.isPending}
                onConfirm={() =>
                  remove.mutate({ eui, hash }, { onSuccess: () => navigate(next ? href(next) : previous ? href(previous) : back, { replace: true }) })
                }
              />
            ) : null}
          </>
        }
      />
      <ErrorBox error={remove.error} />
      <p className="muted small">{operator ? t('cameraTraps.photo.keysSaving') : t('cameraTraps.photo.keys')}</p>
      <PhotoAnnotator
        readOnly={!operator}
        state={draft}
        src={sameOrigin(d.meta.url)}
        alt={t('cameraTraps.photo.alt', { filename: d.meta.filename, eui })}
        filename={d.meta.filename}
        side={
          <dl className="facts card" aria-label={t('cameraTraps.photo.facts.label')}>
            <dt>{t('cameraTraps.photo.facts.camera')}</dt>
            <dd>
              <Link href={`/devices/${eui}`} className="mono">
                {eui}
              </Link>
            </dd>
            <dt>{t('cameraTraps.photo.facts.status')}</dt>
            <dd data-image-status={d.meta.status}>
              {info.error ? t('cameraTraps.photo.facts.statusError', { status: statusText(d.meta.status), error: info.error }) : statusText(d.meta.status)}
            </dd>
            <dt>{t('cameraTraps.photo.facts.taken')}</dt>
            <dd>{t('cameraTraps.photo.facts.utc', { when: utcText(d.meta.ts_photo_unix) })}</dd>
            <dt>{t('cameraTraps.photo.facts.received')}</dt>
            <dd>{t('cameraTraps.photo.facts.utc', { when: utcText(d.meta.ts_sync_unix) })}</dd>
            <dt>{t('cameraTraps.photo.facts.position')}</dt>
            <dd>{d.meta.latitude !== null && d.meta.longitude !== null ? `${num(d.meta.latitude, 5)}, ${num(d.meta.longitude, 5)}` : '–'}</dd>
            <dt>{t('cameraTraps.photo.facts.size')}</dt>
            <dd>
              {info.width && info.height
                ? info.size
                  ? t('cameraTraps.photo.facts.sizeFull', { width: info.width, height: info.height, kib: Math.round(info.size / 1024) })
                  : t('cameraTraps.photo.facts.sizeDimensions', { width: info.width, height: info.height })
                : info.size
                  ? t('cameraTraps.photo.facts.sizeBytes', { kib: Math.round(info.size / 1024) })
                  : '–'}
            </dd>
            <dt>{t('cameraTraps.photo.facts.hash')}</dt>
            <dd className="mono small">{d.meta.bin_hash.slice(0, 16)}…</dd>
          </dl>
        }
      />
    </>
  );
}
