import { de } from './de';
import { en } from './messages';

/*
 * The catalogues agree: every key of the English one is in the German one and no other, every text
 * is written (not empty, not left in English where English has placeholders the German lacks), and
 * each plural has its forms. The type `Messages` already makes a missing German text a type error;
 * this holds at run time too (a cast, a JSON file merged later) and names the key.
 */

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*([\w.]+)/g)].map((m) => m[1]).sort();

describe('the message catalogues', () => {
  const english = flatten(en as unknown as Tree);
  const german = flatten(de as unknown as Tree);

  it('have the same keys in English and German', () => {
    expect([...english.keys()].filter((k) => !german.has(k))).toEqual([]);
    expect([...german.keys()].filter((k) => !english.has(k))).toEqual([]);
  });

  it('write every text, with the same placeholders in both languages', () => {
    for (const [key, text] of english) {
      expect({ key, empty: text.trim() === '' }).toEqual({ key, empty: false });
      expect({ key, de: (german.get(key) ?? '').trim() === '' }).toEqual({ key, de: false });
      expect({ key, placeholders: placeholders(german.get(key) ?? '') }).toEqual({ key, placeholders: placeholders(text) });
    }
  });

  it('give each plural its one and other forms', () => {
    for (const key of english.keys()) {
      const plural = key.match(/^(.*)_(one|other)$/);
      if (plural) for (const form of ['one', 'other']) expect(english.has(`${plural[1]}_${form}`) ? key : `${plural[1]}_${form} missing`).toBe(key);
    }
  });

  it('fails on a key missing in one language (the check itself)', () => {
    const broken = flatten({ a: 'x', b: { c: 'y' } });
    const fewer = flatten({ a: 'x' });
    expect([...broken.keys()].filter((k) => !fewer.has(k))).toEqual(['b.c']);
  });
});
