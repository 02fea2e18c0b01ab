import { runMigrations as runQueueMigrations } from 'bullmq';
import { Client } from 'pg';
import { CITUS_DISTRIBUTION_COLUMN, CITUS_LAYOUT, type CitusKind } from './citus-layout';
import { runMigrations } from './data-source';
import { suiteDatabase } from './testing/suite-database';

/**
 * The schema, as every migration leaves it, against Citus's rules for the layout of
 * citus-layout.ts (docs/scaling.md). Citus is not packaged for these machines, so the rules are
 * checked on the catalog: those of the Citus documentation's "Table management" and "Migrating an
 * existing app" chapters that a schema can break.
 *  1. Every table is placed (a new one fails here until it is).
 *  2. A distributed table has the distribution column, NOT NULL, of one type for all (co-location).
 *  3. Every primary key, unique constraint and unique index of a distributed table includes the
 *     distribution column (shards cannot check uniqueness across each other).
 *  4. Foreign keys: from a distributed table, to a reference table, or to a co-located distributed
 *     table with the distribution column on both sides; from a reference table, to reference
 *     tables only; from a local table, to reference or local tables; nothing points at a
 *     distributed table from outside the distributed ones.
 */
interface Column {
  table: string;
  column: string;
  type: string;
  notNull: boolean;
}
interface UniqueKey {
  table: string;
  name: string;
  columns: string[];
}
interface ForeignKey {
  table: string;
  name: string;
  columns: string[];
  references: string;
  referencedColumns: string[];
}

/**
 * BullMQ's own tables. On the embedded database the queues live in the public schema (PGlite ignores
 * the startup option that pins BullMQ's search_path: libs/platform queue-connection.ts), and its
 * template holds them. They are BullMQ's, not the service's, and a Citus deployment keeps its
 * queues on Redis: left out, as BullMQ's own migrations name them when run into a scratch schema.
 */
async function queueTables(c: Client): Promise<Set<string>> {
  await runQueueMigrations(c, 'queue_probe');
  const { rows } = await c.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'queue_probe' AND c.relkind IN ('r', 'p')`,
  );
  await c.query('DROP SCHEMA queue_probe CASCADE');
  return new Set(rows.map((r) => r.name));
}

describe('the schema keeps to the Citus layout', () => {
  let tables: string[];
  let columns: Column[];
  let uniques: UniqueKey[];
  let foreignKeys: ForeignKey[];
  const kindOf = new Map<string, CitusKind>(
    (Object.entries(CITUS_LAYOUT) as [CitusKind, readonly string[]][]).flatMap(([kind, names]) => names.map((n) => [n, kind] as const)),
  );

  beforeAll(async () => {
    const db = await suiteDatabase('citus');
    try {
      await runMigrations({ url: db.url, poolSize: 1 });
      const c = new Client({ connectionString: db.url });
      await c.connect();
      try {
        // Tables of the public schema, partitions left out (they follow their parent).
        tables = (
          await c.query<{ name: string }>(
            `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY 1`,
          )
        ).rows.map((r) => r.name);
        columns = (
          await c.query<Column>(
            `SELECT c.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS "notNull"
             FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND a.attnum > 0 AND NOT a.attisdropped`,
          )
        ).rows;
        // Unique indexes, which include every primary key and unique constraint.
        uniques = (
          await c.query<UniqueKey>(
            `SELECT t.relname AS table, i.relname AS name, array_agg(a.attname::text ORDER BY k.ord) AS columns
             FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
             JOIN pg_namespace n ON n.oid = t.relnamespace
             CROSS JOIN LATERAL unnest(x.indkey) WITH ORDINALITY AS k(attnum, ord)
             LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
             WHERE n.nspname = 'public' AND x.indisunique AND NOT t.relispartition
             GROUP BY 1, 2`,
          )
        ).rows;
        foreignKeys = (
          await c.query<ForeignKey>(
            `SELECT t.relname AS table, f.conname AS name, r.relname AS references,
                    (SELECT array_agg(a.attname::text ORDER BY k.ord) FROM unnest(f.conkey) WITH ORDINALITY k(n, ord)
                       JOIN pg_attribute a ON a.attrelid = f.conrelid AND a.attnum = k.n) AS columns,
                    (SELECT array_agg(a.attname::text ORDER BY k.ord) FROM unnest(f.confkey) WITH ORDINALITY k(n, ord)
                       JOIN pg_attribute a ON a.attrelid = f.confrelid AND a.attnum = k.n) AS "referencedColumns"
             FROM pg_constraint f JOIN pg_class t ON t.oid = f.conrelid JOIN pg_class r ON r.oid = f.confrelid
             WHERE f.contype = 'f' AND f.connamespace = 'public'::regnamespace AND NOT t.relispartition AND f.conparentid = 0`,
          )
        ).rows;
        const queue = await queueTables(c);
        tables = tables.filter((t) => !queue.has(t));
        columns = columns.filter((col) => !queue.has(col.table));
        uniques = uniques.filter((u) => !queue.has(u.table));
        foreignKeys = foreignKeys.filter((f) => !queue.has(f.table));
      } finally {
        await c.end();
      }
    } finally {
      await db.stop();
    }
  });

  it('places every table, and names no table that is not there', () => {
    expect(tables.filter((t) => !kindOf.has(t))).toEqual([]);
    expect([...kindOf.keys()].filter((t) => !tables.includes(t))).toEqual([]);
  });

  it('gives every distributed table the distribution column, NOT NULL, of one type', () => {
    const dist = CITUS_LAYOUT.distributed.map((table) => columns.find((c) => c.table === table && c.column === CITUS_DISTRIBUTION_COLUMN));
    expect(dist.map((c, i) => c ?? `${CITUS_LAYOUT.distributed[i]} has no ${CITUS_DISTRIBUTION_COLUMN}`).filter((c) => typeof c === 'string')).toEqual([]);
    expect(dist.filter((c) => c && !c.notNull).map((c) => c!.table)).toEqual([]);
    expect(new Set(dist.map((c) => c!.type)).size).toBe(1);
  });

  it('keeps the distribution column in every unique key of a distributed table', () => {
    const distributed = new Set<string>(CITUS_LAYOUT.distributed);
    const broken = uniques.filter((u) => distributed.has(u.table) && !u.columns.includes(CITUS_DISTRIBUTION_COLUMN));
    expect(broken.map((u) => `${u.table}.${u.name} (${u.columns.join(', ')})`)).toEqual([]);
  });

  it('draws every foreign key as the layout allows', () => {
    const problems = foreignKeys.flatMap((fk) => {
      const from = kindOf.get(fk.table);
      const to = kindOf.get(fk.references);
      const what = `${fk.table}.${fk.name} → ${fk.references}`;
      if (!from || !to) return [`${what}: a table that is not placed`];
      if (to === 'distributed') {
        const coLocated =
          from === 'distributed' &&
          fk.columns.includes(CITUS_DISTRIBUTION_COLUMN) &&
          fk.referencedColumns[fk.columns.indexOf(CITUS_DISTRIBUTION_COLUMN)] === CITUS_DISTRIBUTION_COLUMN;
        return coLocated ? [] : [`${what}: only a co-located distributed table may point at a distributed one, on the distribution column`];
      }
      if (from === 'reference' && to !== 'reference') return [`${what}: a reference table may only point at reference tables`];
      return [];
    });
    expect(problems).toEqual([]);
  });
});
