import type { ImageDetailWire } from '@dts/domain';
import { ApiError } from '@dts/client';
import { ChevronLeft, ChevronRight, Trash2 } from 'lucide-react';
import { useEffect, useMemo, useRef } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorBox, Loading, PageHeader } from '../../components/ui';
import { useDeleteImage, useGallery, useImage } from '../../hooks/images';
import { type Neighbours, neighbours, readGalleryFilter, STATUS_TEXT } from '../../lib/gallery';
import { num, utcText } from '../../lib/format';
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

  if (image.isPending) return <Loading what="Loading the photo" />;
  if (image.error instanceof ApiError && image.error.status === 404)
    return (
      <section className="card">
        <h1>Photo not found</h1>
        <p>
          There is no such photo on this account. <Link href={back}>Back to the photos</Link>
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
      {label === 'Previous' ? <ChevronLeft aria-hidden size={16} /> : null} {label} {label === 'Next' ? <ChevronRight aria-hidden size={16} /> : null}
    </Link>
  );
  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link href={back}>Camera traps</Link> / <span aria-current="page">{d.meta.filename}</span>
      </nav>
      <PageHeader
        title={d.meta.filename}
        subtitle={`Taken ${utcText(d.meta.ts_photo_unix)} UTC${position >= 0 ? ` · photo ${position + 1} of ${count.loaded}${count.more ? '+' : ''}` : ''}`}
        actions={
          <>
            {previous ? step(previous, 'Previous') : null}
            {next ? step(next, 'Next') : null}
            {operator ? (
              <ConfirmButton
                label={
                  <>
                    <Trash2 aria-hidden size={14} /> Delete
                  </>
                }
                confirm="Delete this photo?"
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
      <p className="muted small">← and → go to the previous and next photo, Escape back to all photos{operator ? '; changes are saved on the way' : ''}.</p>
      <PhotoAnnotator
        readOnly={!operator}
        state={draft}
        src={sameOrigin(d.meta.url)}
        alt={`Photo ${d.meta.filename} from camera ${eui}`}
        filename={d.meta.filename}
        side={
          <dl className="facts card" aria-label="About the photo">
            <dt>Camera</dt>
            <dd>
              <Link href={`/devices/${eui}`} className="mono">
                {eui}
              </Link>
            </dd>
            <dt>Status</dt>
            <dd data-image-status={d.meta.status}>
              {STATUS_TEXT[d.meta.status]}
              {info.error ? ` — ${info.error}` : ''}
            </dd>
            <dt>Taken</dt>
            <dd>{utcText(d.meta.ts_photo_unix)} UTC</dd>
            <dt>Received</dt>
            <dd>{utcText(d.meta.ts_sync_unix)} UTC</dd>
            <dt>Position</dt>
            <dd>{d.meta.latitude !== null && d.meta.longitude !== null ? `${num(d.meta.latitude, 5)}, ${num(d.meta.longitude, 5)}` : '–'}</dd>
            <dt>Size</dt>
            <dd>
              {info.width && info.height ? `${info.width} × ${info.height} px · ` : ''}
              {info.size ? `${Math.round(info.size / 1024)} KiB` : '–'}
            </dd>
            <dt>Content hash</dt>
            <dd className="mono small">{d.meta.bin_hash.slice(0, 16)}…</dd>
          </dl>
        }
      />
    </>
  );
}
