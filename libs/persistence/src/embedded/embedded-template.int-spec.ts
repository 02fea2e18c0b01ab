import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '../data-source';
import { MIGRATIONS } from '../migrations';
import { startEmbeddedPostgres } from './embedded-postgres';
import { EMBEDDED_SETTINGS } from './embedded-settings';
import { embeddedTemplatePath, ensureEmbeddedTemplate, templateKey } from './embedded-template';

/** A new embedded database starts from the template: every migration applied, nothing of the template's own run left. */
describe('the embedded database template', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('is made once and names this PGlite and these migrations', async () => {
    expect(await ensureEmbeddedTemplate()).toBe(embeddedTemplatePath());
    expect(embeddedTemplatePath()).toMatch(/pgdata-[0-9a-f]{20}\.tar$/);
  });

  it('changes its name when a migration is added or its code changes, or PGlite changes', () => {
    class Migration1 {
      up() {
        return 'CREATE TABLE a ()';
      }
    }
    const edited = class Migration1 {
      up() {
        return 'CREATE TABLE b ()';
      }
    };
    class Migration2 {}
    const base = templateKey('0.5.16', [Migration1]);
    expect(templateKey('0.5.16', [Migration1])).toBe(base);
    expect(templateKey('0.5.16', [edited])).not.toBe(base);
    expect(templateKey('0.5.16', [Migration1, Migration2])).not.toBe(base);
    expect(templateKey('0.5.17', [Migration1])).not.toBe(base);
  });

  it.each([
    ['in memory', null],
    ['in a new DATA_DIR', 'disk'],
  ])('gives a database %s with every migration applied, which keeps what is written', async (_, where) => {
    const dataDir = where ? mkdtempSync(join(tmpdir(), 'dts-template-')) : null;
    if (dataDir) dirs.push(dataDir);
    const db = await startEmbeddedPostgres({ dataDir, maxConnections: 4 });
    try {
      expect(await runMigrations({ url: db.url, poolSize: 1 })).toEqual([]);
      const ds = await new DataSource(dataSourceOptions({ url: db.url, poolSize: 1 })).initialize();
      try {
        const [{ count }] = await ds.query('SELECT count(*)::int AS count FROM schema_migrations');
        expect(count).toBe(MIGRATIONS.length);
        // The small deployment's settings, not the template's postgresql.conf (PostgreSQL's defaults).
        for (const [name, value] of Object.entries(EMBEDDED_SETTINGS)) expect(await ds.query(`SHOW ${name}`)).toEqual([{ [name]: value }]);
        // Nothing of the template's own making is left in it but the seeded rows.
        expect(await ds.query('SELECT count(*)::int AS count FROM accounts')).toEqual([{ count: 0 }]);
        await ds.query('CREATE TABLE template_probe (n int)');
        await ds.query('INSERT INTO template_probe VALUES (42)');
      } finally {
        await ds.destroy();
      }
    } finally {
      await db.stop();
    }
    if (!dataDir) return;
    // Reopened: the directory is a database of its own now, not the template again.
    const again = await startEmbeddedPostgres({ dataDir, maxConnections: 4 });
    try {
      const ds = await new DataSource(dataSourceOptions({ url: again.url, poolSize: 1 })).initialize();
      expect(await ds.query('SELECT n FROM template_probe')).toEqual([{ n: 42 }]);
      await ds.destroy();
    } finally {
      await again.stop();
    }
  });
});
