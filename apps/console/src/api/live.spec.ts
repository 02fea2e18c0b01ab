import { IMAGE_STATUS, type ImageGalleryEntryWire, type ImageStatus } from '@dts/domain';
import { InfiniteQueryObserver, QueryClient } from '@tanstack/react-query';
import { afterGap, applyImageEvent } from './live';
import { keys } from './keys';

type Page = { images: ImageGalleryEntryWire[]; meta: { next_cursor: string | null } };

const photo = (status: ImageStatus): ImageGalleryEntryWire => ({
  devEUI: 'AA00000000000001',
  hash: 'a'.repeat(64),
  ts_photo_unix: 1_700_000_000,
  ts_tx_unix: 1_700_000_000,
  ts_sync_unix: 1_700_000_000,
  lat: null,
  lon: null,
  annotations: [],
  prediction: null,
  status,
  filename: 'IMG_0001.JPG',
});
const STORED = IMAGE_STATUS.RECEIVED;
const PROCESSED = IMAGE_STATUS.READY;

/** Lets the query client's promises run, as many turns as it takes (bounded). */
async function until(check: () => boolean): Promise<void> {
  for (let turn = 0; turn < 1_000 && !check(); turn++) await new Promise((resolve) => setImmediate(resolve));
  if (!check()) throw new Error('the state never came');
}

/** A gallery on screen (an observer, as the page's hook is) whose reads the test answers one by one. */
function gallery(client: QueryClient) {
  const reads: ((page: Page) => void)[] = [];
  const observer = new InfiniteQueryObserver<Page, Error, { pages: Page[] }, readonly unknown[], string | null>(client, {
    queryKey: keys.gallery({}),
    queryFn: () => new Promise<Page>((resolve) => reads.push(resolve)),
    initialPageParam: null,
    getNextPageParam: (last) => last.meta.next_cursor,
  });
  const stop = observer.subscribe(() => undefined);
  const shown = () => observer.getCurrentResult().data?.pages.flatMap((p) => p.images.map((i) => i.status));
  return { reads, shown, stop, observer };
}

describe('image events and the galleries on screen', () => {
  it('writes an event that came while the gallery was being read into the answer of that read: it may predate the thumbnail', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const g = gallery(client);
    await until(() => g.reads.length === 1);
    // The worker made the thumbnail while the gallery was being read ...
    applyImageEvent(client, { ...photo(PROCESSED), deleted: false });
    // ... and the read answers as of before it.
    g.reads[0]!({ images: [photo(STORED)], meta: { next_cursor: null } });
    await until(() => g.shown()?.[0] === PROCESSED);
    // Written, not read again.
    expect(g.reads).toHaveLength(1);
    g.stop();
    client.clear();
  });

  it('keeps an event that came while the next page was being read: that read answers with the pages it started from', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const g = gallery(client);
    await until(() => g.reads.length === 1);
    g.reads[0]!({ images: [photo(STORED)], meta: { next_cursor: 'older' } });
    await until(() => g.shown()?.[0] === STORED);
    void g.observer.fetchNextPage();
    await until(() => g.reads.length === 2);
    applyImageEvent(client, { ...photo(PROCESSED), deleted: false });
    g.reads[1]!({ images: [{ ...photo(STORED), hash: 'b'.repeat(64), ts_photo_unix: 1_600_000_000 }], meta: { next_cursor: null } });
    await until(() => g.shown()?.length === 2);
    expect(g.shown()).toEqual([PROCESSED, STORED]);
    g.stop();
    client.clear();
  });

  it('merges an event into a gallery at rest without reading it again', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const g = gallery(client);
    await until(() => g.reads.length === 1);
    g.reads[0]!({ images: [photo(STORED)], meta: { next_cursor: null } });
    await until(() => g.shown()?.[0] === STORED);
    applyImageEvent(client, { ...photo(PROCESSED), deleted: false });
    expect(g.shown()).toEqual([PROCESSED]);
    expect(g.reads).toHaveLength(1);
    g.stop();
    client.clear();
  });

  it('reads the galleries again after a gap in the feed: image events are not replayed', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const g = gallery(client);
    await until(() => g.reads.length === 1);
    g.reads[0]!({ images: [photo(STORED)], meta: { next_cursor: null } });
    await until(() => g.shown()?.[0] === STORED);
    afterGap(client);
    await until(() => g.reads.length === 2);
    g.reads[1]!({ images: [photo(PROCESSED)], meta: { next_cursor: null } });
    await until(() => g.shown()?.[0] === PROCESSED);
    g.stop();
    client.clear();
  });
});
