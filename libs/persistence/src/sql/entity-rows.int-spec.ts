import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AccountEntity } from '../accounts/account.entity';
import { AccountsRepository } from '../accounts/accounts.repository';
import { dataSourceOptions, runMigrations } from '../data-source';
import { suiteDatabase } from '../testing/suite-database';
import { ApiTokenEntity } from '../tokens/api-token.entity';
import { TokensRepository } from '../tokens/tokens.repository';
import { EntityRows } from './entity-rows';
import { Statements } from './statements';

/**
 * Entities read by prepared statements (EntityRows) are the entities TypeORM's finders return:
 * the same class, members and values — a `date` column as its text, `jsonb`, a text array,
 * timestamps, bytea — for rows with every nullable member set and unset.
 */
describe('EntityRows', () => {
  let ds: DataSource;
  let stop: () => Promise<void>;
  let accounts: AccountsRepository;
  let tokens: TokensRepository;

  beforeAll(async () => {
    const db = await suiteDatabase('entity_rows');
    stop = db.stop;
    await runMigrations({ url: db.url, poolSize: 1 });
    ds = await new DataSource(dataSourceOptions({ url: db.url, poolSize: 2 })).initialize();
    // Named, as on PostgreSQL: the same name prepared once per connection and used again.
    const statements = new Statements(ds, !db.embedded);
    accounts = new AccountsRepository(ds, statements);
    tokens = new TokensRepository(ds, statements);
  });
  afterAll(async () => {
    await ds?.destroy();
    await stop?.();
  });

  const account = async (fullname = '', expiresOn = '2099-01-01') => {
    const name = `e${randomBytes(5).toString('hex')}`;
    const created = await accounts.create({
      username: name,
      email: `${name}@example.org`,
      fullname,
      passwordHash: 'x',
      groupid: 2,
      maxDevices: 10,
      expiresOn,
      emailVerified: true,
    });
    if (!created.ok) throw new Error(created.conflict);
    return created.account.id;
  };

  it('reads an account as findOneBy does', async () => {
    const id = await account('Ada', '2099-01-31');
    await ds.query(`UPDATE accounts SET last_login_at = now(), uplink_retention_days = 30, email_pending = 'new@example.org' WHERE id = $1`, [id]);
    for (let i = 0; i < 2; i++) {
      const read = await accounts.findById(id);
      expect(read).toBeInstanceOf(AccountEntity);
      expect(read).toEqual(await ds.getRepository(AccountEntity).findOneBy({ id }));
      expect(read!.expiresOn).toBe('2099-01-31');
      expect(read!.lastLoginAt).toBeInstanceOf(Date);
    }
    expect(await accounts.findById(id + 1000)).toBeNull();
  });

  it('lists tokens as the query builder did, with and without rights, meta and expiry', async () => {
    const accountId = await account();
    const token = (rights: ('read' | 'ingest')[] | null, until: Date | null) => ({
      accountId,
      digest: randomBytes(32),
      valueEncrypted: randomBytes(48),
      type: 'app' as const,
      name: rights ? 'limited' : null,
      until,
      createdBy: null,
      rights,
    });
    await tokens.createWithinLimit(token(null, null), 10);
    await tokens.createWithinLimit(token(['read', 'ingest'], new Date(Date.now() + 3_600_000)), 10);
    await tokens.createWithinLimit(token(['read'], new Date(Date.now() - 1000)), 10);
    await ds.query(`UPDATE api_tokens SET meta = '{"note": "x"}' WHERE account_id = $1 AND name IS NULL`, [accountId]);
    const listed = await tokens.listActive(accountId);
    const expected = await ds
      .getRepository(ApiTokenEntity)
      .createQueryBuilder('t')
      .where('t.account_id = :accountId AND t.enabled = 1 AND (t.until IS NULL OR t.until > now())', { accountId })
      .orderBy('t.uid', 'ASC')
      .getMany();
    expect(listed).toHaveLength(2);
    expect(listed).toEqual(expected);
    expect(listed[0]).toBeInstanceOf(ApiTokenEntity);
    expect(listed[1]!.rights).toEqual(['read', 'ingest']);
    expect(Buffer.isBuffer(listed[0]!.digest)).toBe(true);
  });

  it('names each column after its property, under the alias given', () => {
    const columns = new EntityRows(ds, AccountEntity).columns('a');
    expect(columns).toContain('a."username_key" AS "usernameKey"');
    expect(columns.split(', ')).toHaveLength(ds.getMetadata(AccountEntity).columns.length);
  });
});
