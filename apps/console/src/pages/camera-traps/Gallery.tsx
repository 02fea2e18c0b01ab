import type { ImageGalleryEntryWire } from '@dts/domain';
import type { TFunction } from 'i18next';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { api } from '../../api/client';
import { SelectField, TextField } from '../../components/form';
import { Card, ErrorBox, Loading, PageHeader } from '../../components/ui';
import { useDatamodel } from '../../hooks/datamodel';
import { useAllDevices } from '../../hooks/devices';
import { useGallery } from '../../hooks/images';
import { EMPTY_FILTER, type GalleryFilter, readGalleryFilter, statusText, writeGalleryFilter } from '../../lib/gallery';
import { cameraOptions } from '../../lib/camera-trap';
import { useTranslation } from '../../i18n';
import { count, utcText } from '../../lib/format';
import { UploadCard } from './UploadCard';
import { useCan } from '../../api/organisation';

const SCORES = [0.25, 0.5, 0.7, 0.8, 0.9, 0.95];

/** What a thumbnail says in words: the best detection, or the image-level prediction. */
function caption(image: ImageGalleryEntryWire, t: TFunction): string {
  const best = [...image.annotations].sort((a, b) => b.score - a.score)[0];
  if (best) return t('cameraTraps.thumb.detection', { label: best.label, percent: Math.round(best.score * 100) });
  if (image.prediction) return t('cameraTraps.thumb.detection', { label: image.prediction.label, percent: Math.round(image.prediction.score * 100) });
  return image.status >= 4 ? t('cameraTraps.thumb.none') : statusText(image.status);
}

function Thumbnail({ image, search }: { image: ImageGalleryEntryWire; search: string }) {
  const { t } = useTranslation();
  const taken = utcText(image.ts_photo_unix);
  return (
    <li className="thumb" data-hash={image.hash} data-status={image.status}>
      <Link href={`/camera-traps/${image.devEUI}/${image.hash}${search}`}>
        {image.status >= 4 ? (
          <img src={api.images.thumbUrl(image.devEUI, image.hash)} alt={image.filename} loading="lazy" decoding="async" width={320} height={240} />
        ) : (
          <span className={`thumb-pending${image.status === 3 ? ' failed' : ''}`}>
            {image.status === 3 ? t('cameraTraps.thumb.unreadable') : t('cameraTraps.thumb.pending')}
          </span>
        )}
        <span className="thumb-caption">
          <span>{caption(image, t)}</span>
          <span className="muted small">{t('cameraTraps.thumb.taken', { when: taken })}</span>
        </span>
      </Link>
    </li>
  );
}

/**
 * The filters above a gallery, kept in the address bar by `setFilter`. `cameras`: the camera
 * choice, left out where the gallery is one device's.
 */
export function GalleryFilters({
  filter,
  setFilter,
  cameras,
}: {
  filter: GalleryFilter;
  setFilter: (next: GalleryFilter) => void;
  cameras: { value: string; label: string }[] | null;
}) {
  const { t } = useTranslation();
  const search = useSearch();
  const [draft, setDraft] = useState(filter);
  // Typed text waits for Filter or leaving the field; the address (back, forward, a link) resets it.
  useEffect(() => setDraft(filter), [search]);
  return (
    <form
      className="toolbar gallery-filters"
      role="search"
      aria-label={t('cameraTraps.filters.label')}
      onSubmit={(e) => {
        e.preventDefault();
        setFilter(draft);
      }}
    >
      {cameras ? (
        <SelectField
          label={t('cameraTraps.filters.camera')}
          empty={t('cameraTraps.filters.anyCamera')}
          value={filter.eui}
          options={cameras}
          onChange={(e) => setFilter({ ...draft, eui: e.target.value })}
        />
      ) : null}
      <TextField
        label={t('cameraTraps.filters.photoLabel')}
        placeholder={t('cameraTraps.filters.photoLabelPlaceholder')}
        value={draft.label}
        onChange={(e) => setDraft({ ...draft, label: e.target.value })}
        onBlur={() => setFilter(draft)}
      />
      <TextField
        label={t('cameraTraps.filters.species')}
        placeholder={t('cameraTraps.filters.speciesPlaceholder')}
        value={draft.species}
        onChange={(e) => setDraft({ ...draft, species: e.target.value })}
        onBlur={() => setFilter(draft)}
      />
      <SelectField
        label={t('cameraTraps.filters.score')}
        empty={t('cameraTraps.filters.anyScore')}
        value={filter.minScore === null ? '' : String(filter.minScore)}
        options={SCORES.map((s) => ({ value: String(s), label: t('cameraTraps.filters.scoreAtLeast', { percent: Math.round(s * 100) }) }))}
        onChange={(e) => setFilter({ ...draft, minScore: e.target.value ? Number(e.target.value) : null })}
      />
      <TextField label={t('cameraTraps.filters.from')} type="date" value={draft.from} onChange={(e) => setFilter({ ...draft, from: e.target.value })} />
      <TextField label={t('cameraTraps.filters.to')} type="date" value={draft.to} onChange={(e) => setFilter({ ...draft, to: e.target.value })} />
      <div className="toolbar-actions">
        <button type="submit">{t('cameraTraps.filters.submit')}</button>
        {writeGalleryFilter({ ...filter, eui: cameras ? filter.eui : '' }) ? (
          <button type="button" className="ghost" onClick={() => setFilter({ ...EMPTY_FILTER, eui: cameras ? '' : filter.eui })}>
            {t('cameraTraps.filters.clear')}
          </button>
        ) : null}
      </div>
    </form>
  );
}

/** Whether the filter narrows the photos beyond the camera. */
export const narrowed = (filter: GalleryFilter) => writeGalleryFilter({ ...filter, eui: '' }) !== '';

/**
 * The thumbnails of the photos the filter matches, newest first, loaded as they scroll into view
 * (infinite scroll) and appearing live. Each opens the photo page, which steps through the same list.
 */
export function PhotoGrid({ filter, empty }: { filter: GalleryFilter; empty: string }) {
  const { t } = useTranslation();
  const gallery = useGallery(filter);
  const images = useMemo(() => gallery.data?.pages.flatMap((p) => p.images) ?? [], [gallery.data]);
  const end = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = gallery;
  const photoSearch = writeGalleryFilter(filter);

  // The next page when the end of the grid comes near the view (infinite scroll).
  useEffect(() => {
    const sentinel = end.current;
    if (!sentinel || !hasNextPage) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
      },
      { rootMargin: '600px' },
    );
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, images.length]);

  return (
    <>
      <ErrorBox error={gallery.error} />
      {gallery.isPending ? <Loading what={t('cameraTraps.grid.loading')} /> : null}
      {gallery.data ? (
        <p className="muted small" role="status">
          {t(narrowed(filter) ? 'cameraTraps.grid.matching' : 'cameraTraps.grid.count', {
            count: hasNextPage ? 2 : images.length,
            n: `${count(images.length)}${hasNextPage ? '+' : ''}`,
          })}
        </p>
      ) : null}
      {gallery.data && images.length === 0 ? (
        <Card>
          <p className="empty">{narrowed(filter) ? t('cameraTraps.grid.noMatch') : empty}</p>
        </Card>
      ) : null}
      <ul className="gallery" aria-label={t('cameraTraps.grid.label')} aria-busy={isFetchingNextPage}>
        {images.map((image) => (
          <Thumbnail key={`${image.devEUI}/${image.hash}`} image={image} search={photoSearch} />
        ))}
      </ul>
      <div ref={end} className="gallery-end">
        {hasNextPage ? (
          <button type="button" onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
            {isFetchingNextPage ? t('cameraTraps.grid.loadingMore') : t('cameraTraps.grid.loadMore')}
          </button>
        ) : images.length > 0 ? (
          <p className="muted small">{t('cameraTraps.grid.end')}</p>
        ) : null}
      </div>
    </>
  );
}

/** Every camera's photos (or one's): filtered by the service, thumbnails loaded as they scroll into view, new ones appearing live. */
export function GalleryPage() {
  const { t } = useTranslation();
  const search = useSearch();
  const [, navigate] = useLocation();
  const filter = readGalleryFilter(search);
  const setFilter = (next: GalleryFilter) => navigate(`/camera-traps${writeGalleryFilter(next)}`, { replace: true });
  const devices = useAllDevices().data;
  const datamodel = useDatamodel().data;
  const cameras = useMemo(() => cameraOptions(devices ?? [], datamodel, filter.eui), [devices, datamodel, filter.eui]);
  // Uploading is an operator's; a viewer browses.
  const operator = useCan('operator');
  return (
    <>
      <PageHeader title={t('cameraTraps.title')} />
      {operator ? <UploadCard cameras={cameras} camera={filter.eui} /> : null}
      <GalleryFilters filter={filter} setFilter={setFilter} cameras={cameras} />
      <PhotoGrid filter={filter} empty={filter.eui ? t('cameraTraps.grid.emptyCamera') : t('cameraTraps.grid.empty')} />
    </>
  );
}
