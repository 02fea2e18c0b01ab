import type { ImageGalleryEntryWire } from '@dts/domain';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { api } from '../../api/client';
import { SelectField, TextField } from '../../components/form';
import { Card, ErrorBox, Loading, PageHeader } from '../../components/ui';
import { useDatamodel } from '../../hooks/datamodel';
import { useAllDevices } from '../../hooks/devices';
import { useGallery } from '../../hooks/images';
import { EMPTY_FILTER, type GalleryFilter, readGalleryFilter, STATUS_TEXT, writeGalleryFilter } from '../../lib/gallery';
import { cameraOptions } from '../../lib/camera-trap';
import { noun, utcText } from '../../lib/format';
import { UploadCard } from './UploadCard';
import { useCan } from '../../api/organisation';

const SCORES = [0.25, 0.5, 0.7, 0.8, 0.9, 0.95].map((s) => ({ value: String(s), label: `at least ${Math.round(s * 100)} %` }));

/** What a thumbnail says in words: the best detection, or the image-level prediction. */
function caption(image: ImageGalleryEntryWire): string {
  const best = [...image.annotations].sort((a, b) => b.score - a.score)[0];
  if (best) return `${best.label} ${Math.round(best.score * 100)} %`;
  if (image.prediction) return `${image.prediction.label} ${Math.round(image.prediction.score * 100)} %`;
  return image.status >= 4 ? 'no detections' : STATUS_TEXT[image.status]!;
}

function Thumbnail({ image, search }: { image: ImageGalleryEntryWire; search: string }) {
  const taken = utcText(image.ts_photo_unix);
  return (
    <li className="thumb" data-hash={image.hash} data-status={image.status}>
      <Link href={`/camera-traps/${image.devEUI}/${image.hash}${search}`}>
        {image.status >= 4 ? (
          <img src={api.images.thumbUrl(image.devEUI, image.hash)} alt={image.filename} loading="lazy" decoding="async" width={320} height={240} />
        ) : (
          <span className={`thumb-pending${image.status === 3 ? ' failed' : ''}`}>{image.status === 3 ? 'Could not be read' : 'Making the thumbnail…'}</span>
        )}
        <span className="thumb-caption">
          <span>{caption(image)}</span>
          <span className="muted small">{taken} UTC</span>
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
  const search = useSearch();
  const [draft, setDraft] = useState(filter);
  // Typed text waits for Filter or leaving the field; the address (back, forward, a link) resets it.
  useEffect(() => setDraft(filter), [search]);
  return (
    <form
      className="toolbar gallery-filters"
      role="search"
      aria-label="Filter the photos"
      onSubmit={(e) => {
        e.preventDefault();
        setFilter(draft);
      }}
    >
      {cameras ? (
        <SelectField label="Camera" empty="Every camera" value={filter.eui} options={cameras} onChange={(e) => setFilter({ ...draft, eui: e.target.value })} />
      ) : null}
      <TextField
        label="Label"
        placeholder="e.g. deer"
        value={draft.label}
        onChange={(e) => setDraft({ ...draft, label: e.target.value })}
        onBlur={() => setFilter(draft)}
      />
      <TextField
        label="Species"
        placeholder="e.g. cervidae"
        value={draft.species}
        onChange={(e) => setDraft({ ...draft, species: e.target.value })}
        onBlur={() => setFilter(draft)}
      />
      <SelectField
        label="Score"
        empty="Any score"
        value={filter.minScore === null ? '' : String(filter.minScore)}
        options={SCORES}
        onChange={(e) => setFilter({ ...draft, minScore: e.target.value ? Number(e.target.value) : null })}
      />
      <TextField label="Taken from (UTC)" type="date" value={draft.from} onChange={(e) => setFilter({ ...draft, from: e.target.value })} />
      <TextField label="Taken until (UTC)" type="date" value={draft.to} onChange={(e) => setFilter({ ...draft, to: e.target.value })} />
      <div className="toolbar-actions">
        <button type="submit">Filter</button>
        {writeGalleryFilter({ ...filter, eui: cameras ? filter.eui : '' }) ? (
          <button type="button" className="ghost" onClick={() => setFilter({ ...EMPTY_FILTER, eui: cameras ? '' : filter.eui })}>
            Clear the filters
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
      {gallery.isPending ? <Loading what="Loading photos" /> : null}
      {gallery.data ? (
        <p className="muted small" role="status">
          {images.length.toLocaleString('en')}
          {hasNextPage ? '+' : ''} {noun(hasNextPage ? 2 : images.length, 'photo')}
          {narrowed(filter) ? ' match' : ''}
        </p>
      ) : null}
      {gallery.data && images.length === 0 ? (
        <Card>
          <p className="empty">{narrowed(filter) ? 'No photo matches. Change the filters.' : empty}</p>
        </Card>
      ) : null}
      <ul className="gallery" aria-label="Photos" aria-busy={isFetchingNextPage}>
        {images.map((image) => (
          <Thumbnail key={`${image.devEUI}/${image.hash}`} image={image} search={photoSearch} />
        ))}
      </ul>
      <div ref={end} className="gallery-end">
        {hasNextPage ? (
          <button type="button" onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
            {isFetchingNextPage ? 'Loading…' : 'Load more photos'}
          </button>
        ) : images.length > 0 ? (
          <p className="muted small">That is every photo.</p>
        ) : null}
      </div>
    </>
  );
}

/** Every camera's photos (or one's): filtered by the service, thumbnails loaded as they scroll into view, new ones appearing live. */
export function GalleryPage() {
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
      <PageHeader title="Camera traps" />
      {operator ? <UploadCard cameras={cameras} camera={filter.eui} /> : null}
      <GalleryFilters filter={filter} setFilter={setFilter} cameras={cameras} />
      <PhotoGrid
        filter={filter}
        empty={filter.eui ? 'No photos from this camera yet.' : 'No photos yet. Drop some on the upload area above, or let a camera send them.'}
      />
    </>
  );
}
