import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../data-source';
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

  beforeAll(async () => {
    // A database as it was before this change: the migrations before it (an embedded one made
    // without the migrated template), an account, then the rest.
    const db = await suiteDatabase('email_verification_upgrade', { empty: true });
    stop = db.stop;
    const at = MIGRATIONS.indexOf(EmailVerification1795820000000);
    expect(at).toBeGreaterThan(0);
    const before = await new DataSource({ ...dataSourceOptions({ url: db.url, poolSize: 1 }), migrations: MIGRATIONS.slice(0, at) }).initialize();
    await before.runMigrations({ transaction: 'each' });
    await before.destroy();
    ds = await new DataSource(dataSourceOptions({ url: db.url, poolSize: 1 })).initialize();
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
