import type { AnnotationsRequest, ImageDetailWire, ImageGalleryEntryWire } from '@dts/domain';
import { type InfiniteData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { api, errorText } from '../api/client';
import { keys } from '../api/keys';
import { type GalleryFilter, galleryQuery } from '../lib/gallery';
import { fileProblem, type UploadItem } from '../lib/upload';

export type GalleryPage = { images: ImageGalleryEntryWire[]; meta: { next_cursor: string | null } };

/** The gallery: every camera's photos (or one's), newest first, filtered by the service, in keyset pages. */
export function useGallery(filter: GalleryFilter) {
  const q = galleryQuery(filter);
  return useInfiniteQuery({
    queryKey: keys.gallery(q),
    queryFn: ({ pageParam }) => api.images.gallery({ ...q, ...(pageParam ? { cursor: pageParam } : {}) }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: GalleryPage) => last.meta.next_cursor ?? undefined,
  });
}

/** Whether any photo came from the device (one photo asked for): a device page's Photos tab shows then. */
export function useHasPhotos(eui: string) {
  return useQuery({ queryKey: keys.hasPhotos(eui), queryFn: async () => (await api.images.gallery({ eui, limit: 1 })).images.length > 0, staleTime: 60_000 });
}

/** One photo's detail: the signed link to the file, its annotations, its details. */
export function useImage(eui: string, hash: string) {
  return useQuery({ queryKey: keys.image(eui, hash), queryFn: () => api.images.get(eui, hash) });
}

/** The labels used on the account's photos, the most used first: suggestions while labelling. */
export function useImageLabels() {
  return useQuery({ queryKey: keys.imageLabels, queryFn: () => api.images.labels(), staleTime: 60_000 });
}

/**
 * Replaces a photo's annotations — a person's draft in our object form, or a detector's output
 * file — and shows them as stored at once. The galleries learn it from the live image event (and
 * filter it in or out as they do any change); the label suggestions are fetched anew.
 */
export function useAnnotate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ eui, hash, body }: { eui: string; hash: string; body: AnnotationsRequest | Record<string, unknown> | unknown[] }) =>
      api.images.annotate(eui, hash, body as AnnotationsRequest),
    onSuccess: (detail: ImageDetailWire, { eui, hash }) => {
      client.setQueryData(keys.image(eui, hash), detail);
      void client.invalidateQueries({ queryKey: keys.imageLabels });
    },
  });
}

export function useDeleteImage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ eui, hash }: { eui: string; hash: string }) => api.images.remove(eui, hash),
    onSuccess: (_, { eui, hash }) => {
      // Gone from every loaded gallery at once; the live event says the same a moment later.
      client.setQueriesData<InfiniteData<GalleryPage>>({ queryKey: keys.galleries }, (data) =>
        data ? { ...data, pages: data.pages.map((p) => ({ ...p, images: p.images.filter((i) => !(i.hash === hash && i.devEUI === eui)) })) } : data,
      );
      client.removeQueries({ queryKey: keys.image(eui, hash) });
      void client.invalidateQueries({ queryKey: keys.overview });
    },
  });
}

/**
 * Uploads of many photos to one camera, one after another, each with its progress; a file the
 * console or the service refuses says why and the others go on. New photos reach the gallery
 * through the live feed (and a refetch when the uploads are done).
 */
export function useUploads() {
  const client = useQueryClient();
  const [items, setItems] = useState<UploadItem[]>([]);
  const queue = useRef(Promise.resolve());
  const next = useRef(0);
  const patch = (id: number, change: Partial<UploadItem>) => setItems((list) => list.map((i) => (i.id === id ? { ...i, ...change } : i)));

  const add = useCallback(
    (eui: string, files: readonly File[]) => {
      const fresh = files.map((file) => ({
        file,
        item: { id: ++next.current, name: file.name, size: file.size, sent: 0, state: 'waiting', problem: fileProblem(file) } as UploadItem,
      }));
      setItems((list) => [...fresh.map((f) => (f.item.problem ? { ...f.item, state: 'refused' as const } : f.item)), ...list]);
      for (const { file, item } of fresh) {
        if (item.problem) continue;
        queue.current = queue.current.then(async () => {
          patch(item.id, { state: 'sending' });
          try {
            const { created } = await api.images.uploadWithStatus(
              eui,
              file,
              { filename: file.name },
              {
                // The multipart body is a little larger than the file: progress as its share.
                onProgress: (sent, total) => patch(item.id, { sent: total > 0 ? Math.round((sent / total) * item.size) : sent }),
              },
            );
            // The same bytes again answer the existing image (200): said, not an error.
            patch(item.id, { state: created ? 'done' : 'same', sent: item.size });
          } catch (error) {
            patch(item.id, { state: 'refused', problem: errorText(error) });
          }
        });
      }
      void queue.current.then(() => {
        void client.invalidateQueries({ queryKey: keys.galleries });
        void client.invalidateQueries({ queryKey: keys.overview });
      });
    },
    [client],
  );
  const clear = useCallback(() => setItems((list) => list.filter((i) => i.state === 'waiting' || i.state === 'sending')), []);
  return { items, add, clear };
}
