import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '../data-source';
import { suiteDatabase } from '../testing/suite-database';
import { EmailVerification1795820000000 } from './1795820000000-email-verification';
import { MIGRATIONS } from './index';

/**
 * An upgrade (docs/api.md §3, "Existing accounts"): accounts made before e-mail verification keep
 * receiving their alert mail (verified by the migration); accounts made after start unverified.
 */
describe('migration 1795820000000-email-verification on an existing database', () => {
  let stop: () => Promise<void>;
  let ds: DataSource;

  const insertAccount = (name: string) =>
    ds.query(
      `INSERT INTO accounts (username, username_key, email, email_key, password_hash, expires_on, max_devices)
       VALUES ($1, $1, $2, $2, 'x', '2999-01-01', 10)`,
      [name, `${name}@example.org`],
    );
  const applied = async (name: string) => (await ds.query('SELECT 1 FROM schema_migrations WHERE name = $1', [name])).length > 0;

  beforeAll(async () => {
    const db = await suiteDatabase('email_verification_upgrade');
    stop = db.stop;
    // A database as it was before this change: every migration (the embedded one starts from a
    // template that has them all), then back down through this one, which tests the downs too.
    await runMigrations({ url: db.url, poolSize: 1 });
    ds = await new DataSource(dataSourceOptions({ url: db.url, poolSize: 1 })).initialize();
    const name = new EmailVerification1795820000000().name;
    expect(MIGRATIONS).toContain(EmailVerification1795820000000);
    while (await applied(name)) await ds.undoLastMigration({ transaction: 'each' });
    expect(await ds.query(`SELECT to_regclass('email_verifications') AS t`)).toEqual([{ t: null }]);
    await insertAccount('veteran');
    await ds.runMigrations({ transaction: 'each' });
  });
  afterAll(async () => {
    await ds?.destroy();
    await stop?.();
  });

  it('takes the accounts that existed as verified, and starts new ones unverified', async () => {
    await insertAccount('newcomer');
    const rows = await ds.query('SELECT username, email_verified_at IS NOT NULL AS verified, email_pending FROM accounts ORDER BY id');
    expect(rows).toEqual([
      { username: 'veteran', verified: true, email_pending: null },
      { username: 'newcomer', verified: false, email_pending: null },
    ]);
    expect(await ds.query(`SELECT to_regclass('email_verifications')::text AS t, to_regclass('alert_mails')::text AS m`)).toEqual([
      { t: 'email_verifications', m: 'alert_mails' },
    ]);
  });
});
