import type { ImageGalleryEntryWire } from '@dts/domain';
import { EMPTY_FILTER, galleryQuery, matchesFilter, mergeImageEvent, neighbours, readGalleryFilter, taxonomyName, writeGalleryFilter } from './gallery';

const FOX = { id: 'f', class: 'mammalia', order: 'carnivora', family: 'canidae', genus: 'vulpes', species: 'vulpes' };
const image = (hash: string, ts: number, extra: Partial<ImageGalleryEntryWire> = {}): ImageGalleryEntryWire => ({
  devEUI: 'AA00000000000001',
  hash,
  ts_photo_unix: ts,
  ts_tx_unix: ts,
  ts_sync_unix: ts,
  lat: null,
  lon: null,
  annotations: [],
  prediction: null,
  status: 4,
  filename: `${hash}.jpg`,
  ...extra,
});

describe('the gallery filter in the address bar', () => {
  it('round-trips, dropping what is not a filter', () => {
    const f = { eui: 'AA00000000000001', label: 'fox', species: 'vulpes', minScore: 0.5, from: '2026-01-01', to: '2026-01-31' };
    expect(readGalleryFilter(writeGalleryFilter(f))).toEqual(f);
    expect(writeGalleryFilter(EMPTY_FILTER)).toBe('');
    expect(readGalleryFilter('?score=2&from=yesterday&label=')).toEqual(EMPTY_FILTER);
  });

  it('becomes the route’s query: days as UTC seconds, the end of the last day included', () => {
    expect(galleryQuery({ ...EMPTY_FILTER, label: ' fox ', minScore: 0, from: '2026-01-01', to: '2026-01-01' }, 10)).toEqual({
      label: 'fox',
      min_score: 0,
      from: 1_767_225_600,
      to: 1_767_225_600 + 86_399,
      limit: 10,
    });
  });
});

describe('matching a filter as the service does', () => {
  const fox = image('a', 100, {
    annotations: [{ id: 1, bbox: [0, 0, 1, 1], score: 0.3, label: 'red fox', taxonomy: FOX, source: null }],
    prediction: { label: 'blank', score: 0.9, taxonomy: null, source: null },
  });
  it.each<[string, Partial<typeof EMPTY_FILTER>, boolean]>([
    ['no filter', {}, true],
    ['a label, any case', { label: 'FOX' }, true],
    ['a label and a score on different detections', { label: 'fox', minScore: 0.5 }, false],
    ['the prediction’s label and score', { label: 'blank', minScore: 0.8 }, true],
    ['a taxonomy level', { species: 'canidae' }, true],
    ['a taxonomy on a detection without one', { species: 'canidae', label: 'blank' }, false],
    ['another camera', { eui: 'AA00000000000002' }, false],
    ['a day before the photo', { to: '1969-12-31' }, false],
  ])('%s', (_what, filter, expected) => {
    expect(matchesFilter(fox, { ...EMPTY_FILTER, ...filter })).toBe(expected);
  });
});

describe('image events merged into the loaded pages', () => {
  const pages = [[image('c', 300), image('b', 200)], [image('a', 100)]];
  const hashes = (p: ImageGalleryEntryWire[][]) => p.map((page) => page.map((i) => i.hash));

  it('replaces a known image, and removes it when deleted or no longer matching', () => {
    const annotated = { ...image('b', 200, { status: 5 }), deleted: false };
    expect(mergeImageEvent(pages, annotated, EMPTY_FILTER, false)[0]![1]!.status).toBe(5);
    expect(hashes(mergeImageEvent(pages, { ...image('b', 200), deleted: true }, EMPTY_FILTER, false))).toEqual([['c'], ['a']]);
    expect(hashes(mergeImageEvent(pages, { ...image('b', 200), deleted: false }, { ...EMPTY_FILTER, label: 'deer' }, false))).toEqual([['c'], ['a']]);
  });

  it('puts a new matching photo in its place; leaves one older than everything loaded to a later page', () => {
    expect(hashes(mergeImageEvent(pages, { ...image('n', 400), deleted: false }, EMPTY_FILTER, true))).toEqual([['n', 'c', 'b'], ['a']]);
    expect(hashes(mergeImageEvent(pages, { ...image('m', 150), deleted: false }, EMPTY_FILTER, true))).toEqual([
      ['c', 'b'],
      ['m', 'a'],
    ]);
    expect(mergeImageEvent(pages, { ...image('o', 50), deleted: false }, EMPTY_FILTER, true)).toBe(pages);
    expect(hashes(mergeImageEvent(pages, { ...image('o', 50), deleted: false }, EMPTY_FILTER, false))).toEqual([
      ['c', 'b'],
      ['a', 'o'],
    ]);
    expect(hashes(mergeImageEvent([], { ...image('n', 1), deleted: false }, EMPTY_FILTER, false))).toEqual([['n']]);
    expect(mergeImageEvent(pages, { ...image('x', 400), deleted: true }, EMPTY_FILTER, false)).toBe(pages);
  });
});

describe('photo helpers', () => {
  it('finds the neighbouring photos, null at the ends', () => {
    const list = [image('a', 3), image('b', 2), image('c', 1)];
    const hashes = (n: { previous: { hash: string } | null; next: { hash: string } | null; position: number }) => [
      n.previous?.hash ?? null,
      n.next?.hash ?? null,
      n.position,
    ];
    expect(hashes(neighbours(list, list[1]!, null))).toEqual(['a', 'c', 1]);
    expect(hashes(neighbours(list, list[2]!, null))).toEqual(['b', null, 2]);
    expect(hashes(neighbours(list, image('z', 0), null))).toEqual([null, null, -1]);
  });

  it('goes on from where a photo stood once it left the filtered list (relabelled), while its neighbours are there', () => {
    const list = [image('a', 3), image('b', 2), image('c', 1)];
    const before = neighbours(list, list[1]!, null);
    const without = [list[0]!, list[2]!];
    expect(neighbours(without, list[1]!, before)).toEqual({ previous: list[0], next: list[2], position: -1 });
    expect(neighbours([list[0]!], list[1]!, before)).toEqual({ previous: list[0], next: null, position: -1 });
  });

  it('names a taxonomy', () => {
    expect(taxonomyName(FOX)).toBe('Vulpes vulpes (Canidae)');
    expect(taxonomyName({ ...FOX, genus: '', species: '' })).toBe('Canidae');
    expect(taxonomyName(null)).toBeNull();
  });
});
