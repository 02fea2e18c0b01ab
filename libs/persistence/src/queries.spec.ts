import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GENERATED_QUERIES, sqlFileText } from './queries';

const DIR = join(__dirname, '..', 'queries');
/** `npm run sql:generate` sets it: the files are written instead of compared. */
const UPDATE = process.env.UPDATE_SQL === '1';

describe('generated SQL, kept in libs/persistence/queries', () => {
  it.each(Object.entries(GENERATED_QUERIES))('%s.sql is what the code sends', (name, sql) => {
    const file = join(DIR, `${name}.sql`);
    if (UPDATE) writeFileSync(file, sqlFileText(sql));
    let committed = '';
    try {
      committed = readFileSync(file, 'utf8');
    } catch {
      throw new Error(`${file} is missing: run npm run sql:generate and commit it`);
    }
    // On failure: the statement changed. Review the difference, then npm run sql:generate.
    expect(committed).toBe(sqlFileText(sql));
  });

  it('keeps no file for a statement that is gone', () => {
    const files = readdirSync(DIR).filter((f) => f.endsWith('.sql'));
    expect(files.sort()).toEqual(
      Object.keys(GENERATED_QUERIES)
        .map((name) => `${name}.sql`)
        .sort(),
    );
  });
});
