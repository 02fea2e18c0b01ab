import { i18n } from '../i18n';
import { fileProblem, megabytes, percent } from './upload';

describe('files refused before an upload', () => {
  it.each<[string, { name: string; size: number; type: string }, string | null]>([
    ['a JPEG', { name: 'a.jpg', size: 10, type: 'image/jpeg' }, null],
    ['a PNG without a type, by its name', { name: 'a.PNG', size: 10, type: '' }, null],
    ['an empty file', { name: 'a.jpg', size: 0, type: 'image/jpeg' }, 'The file is empty.'],
    ['a text file', { name: 'notes.txt', size: 10, type: 'text/plain' }, 'Only JPEG and PNG photos are taken, not text/plain.'],
    ['a file without a type or a photo’s name', { name: 'blob', size: 10, type: '' }, 'Only JPEG and PNG photos are taken.'],
    ['a file over 20 MiB', { name: 'big.jpg', size: 21 * 1_048_576, type: 'image/jpeg' }, 'The file is 21 MiB; at most 20 MiB are taken.'],
  ])('%s', (_what, file, problem) => {
    expect(fileProblem(file)).toBe(problem);
  });

  it('shows sizes and progress', () => {
    expect(megabytes(1_572_864)).toBe('1.5 MiB');
    const item = { id: 1, name: 'a', size: 200, sent: 50, state: 'sending' as const, problem: null };
    expect(percent(item)).toBe(25);
    expect(percent({ ...item, state: 'same' })).toBe(100);
  });
});

describe('in German', () => {
  beforeAll(() => i18n.changeLanguage('de'));
  afterAll(() => i18n.changeLanguage('en'));

  it('says why a file is refused, with German numbers', () => {
    expect(megabytes(1_572_864)).toBe('1,5 MiB');
    expect(fileProblem({ name: 'notes.txt', size: 10, type: 'text/plain' })).toBe('Nur JPEG- und PNG-Fotos werden angenommen, nicht text/plain.');
    expect(fileProblem({ name: 'big.jpg', size: 21 * 1_048_576, type: 'image/jpeg' })).toBe('Die Datei hat 21 MiB; höchstens 20 MiB werden angenommen.');
  });
});
