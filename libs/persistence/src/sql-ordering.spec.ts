import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The ORDER BY of the query level a `::text AS name` stands in, when it names `name` bare: the text
 * after the cast, followed at the same depth of parentheses (a subquery's or window's own ORDER BY
 * is another level), up to where that level ends.
 */
export function orderedByCastName(statement: string): string[] {
  const found: string[] = [];
  for (const cast of statement.matchAll(/::text AS (\w+)/g)) {
    const name = cast[1]!;
    let depth = 0;
    for (let i = cast.index + cast[0].length; i < statement.length && depth >= 0; i++) {
      const c = statement[i];
      if (c === '(') depth++;
      else if (c === ')') depth--;
      else if (depth === 0 && /^ORDER BY\b/i.test(statement.slice(i, i + 9))) {
        const list = /^ORDER BY([^()]*?)(?:\bLIMIT\b|\bOFFSET\b|\bFOR\b|\)|$)/i.exec(statement.slice(i))?.[1] ?? '';
        if (new RegExp(`(?<![.\\w])${name}\\b`).test(list)) found.push(name);
        break;
      }
    }
  }
  return found;
}

/**
 * In PostgreSQL a bare name in ORDER BY that matches an output column means that column: in
 * `SELECT id::text AS id … ORDER BY id` it sorts the text, '1000' before '999'. Twice that took rows
 * in the wrong order (re-decoding skipped a third of a long history; the event router judged a
 * device's newer uplink before an older one). Every statement of this library that casts a column to
 * text under its own name and orders by that name must qualify it (`ORDER BY events.id`).
 */
describe('ORDER BY never sorts a number cast to text', () => {
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.includes('spec') ? [join(dir, e.name)] : [],
    );

  it('qualifies the column wherever a query orders by a name it also casts to text', () => {
    const offending: string[] = [];
    for (const file of files(__dirname)) {
      // Each template literal or quoted string is one statement (or part of one).
      for (const [statement] of readFileSync(file, 'utf8').matchAll(/`[^`]*`|'[^'\n]*'/g)) {
        for (const name of orderedByCastName(statement)) offending.push(`${file.slice(__dirname.length + 1)}: ORDER BY ${name}`);
      }
    }
    expect(offending).toEqual([]);
  });

  it('finds the mistake it is there for, and only at the level of the cast', () => {
    expect(orderedByCastName('SELECT id::text AS id FROM events WHERE routed_at IS NULL ORDER BY id LIMIT $1')).toEqual(['id']);
    expect(orderedByCastName('SELECT id::text AS id FROM events WHERE routed_at IS NULL ORDER BY events.id LIMIT $1')).toEqual([]);
    expect(orderedByCastName('SELECT u.uid::text AS uid FROM uplinks u ORDER BY u.received_at, uid')).toEqual(['uid']);
    expect(orderedByCastName('SELECT x FROM (SELECT id::text AS id FROM t) s ORDER BY id')).toEqual([]);
    expect(orderedByCastName('UPDATE t SET a = 1 FROM (SELECT id FROM t ORDER BY id) s RETURNING t.id::text AS id')).toEqual([]);
  });
});
