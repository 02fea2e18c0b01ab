import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '../data-source';
import { suiteDatabase } from '../testing/suite-database';
import { type DashboardViewer, DashboardsRepository } from './dashboards.repository';

/**
 * The dashboards' storage, on both databases: who sees which (the maker, or a share role the
 * viewer's role reaches), the per-account limit counted under the account's lock, a change that
 * leaves out a member keeping it (and `shared_role: null` making it private), and which EUIs an
 * account does not reach.
 */
describe('DashboardsRepository', () => {
  let ds: DataSource;
  let stop: () => Promise<void>;
  let repo: DashboardsRepository;
  let org: number;
  let maker: number;
  let other: number;

  const person = async (name: string) =>
    (
      await ds.query(
        `INSERT INTO accounts (username, username_key, email, email_key, password_hash, expires_on, max_devices)
         VALUES ($1, $1, $1 || '@example.org', $1 || '@example.org', 'x', '2999-01-01', 10) RETURNING id`,
        [name],
      )
    )[0].id as number;
  const as = (userId: number, reach: string[], accountId = org): DashboardViewer => ({ accountId, userId, reach });
  const names = async (v: DashboardViewer) => (await repo.list(v)).map((d) => d.name);

  beforeAll(async () => {
    const db = await suiteDatabase('dashboards');
    stop = db.stop;
    await runMigrations({ url: db.url, poolSize: 1 });
    ds = await new DataSource(dataSourceOptions({ url: db.url, poolSize: 4 })).initialize();
    repo = new DashboardsRepository(ds);
    org = await person('dash_org');
    maker = await person('dash_maker');
    other = await person('dash_other');
  });
  afterAll(async () => {
    await ds?.destroy();
    await stop?.();
  });

  it('shows a dashboard to its maker, and a shared one to the viewers its role reaches, by name', async () => {
    const mine = as(maker, ['viewer', 'operator']);
    await repo.create(mine, { name: 'private', widgets: [], shared_role: null }, 100);
    await repo.create(mine, { name: 'Admins', widgets: [], shared_role: 'admin' }, 100);
    const everyone = (await repo.create(mine, { name: 'everyone', widgets: [{ id: 'a' }], shared_role: 'viewer' }, 100))!;
    expect(everyone).toMatchObject({ name: 'everyone', widgets: [{ id: 'a' }], shared_role: 'viewer', created_by: maker, maker: 'dash_maker' });

    expect(await names(mine)).toEqual(['Admins', 'everyone', 'private']);
    expect(await names(as(other, ['viewer']))).toEqual(['everyone']);
    expect(await names(as(other, ['viewer', 'operator', 'admin']))).toEqual(['Admins', 'everyone']);
    // Another account holds none of them, whoever looks.
    expect(await names(as(maker, ['viewer', 'operator', 'admin'], other))).toEqual([]);
    expect(await repo.find(as(other, ['viewer']), everyone.uid)).toMatchObject({ name: 'everyone' });
    expect(await repo.find(as(other, ['viewer', 'operator']), everyone.uid - 1)).toBeNull();
  });

  it('changes only the members given; a null share role makes it private again', async () => {
    const v = as(maker, ['viewer']);
    const made = (await repo.create(v, { name: 'to change', widgets: [{ id: 'w' }], shared_role: 'operator' }, 100))!;
    const renamed = (await repo.update(org, made.uid, { name: 'changed' }))!;
    expect(renamed).toMatchObject({ name: 'changed', widgets: [{ id: 'w' }], shared_role: 'operator' });
    expect(renamed.updated_at.getTime()).toBeGreaterThanOrEqual(made.updated_at.getTime());
    expect(await repo.update(org, made.uid, { shared_role: null, widgets: [] })).toMatchObject({ name: 'changed', widgets: [], shared_role: null });
    expect(await repo.update(other, made.uid, { name: 'not theirs' })).toBeNull();
    expect(await repo.delete(other, made.uid)).toBe(false);
    expect(await repo.delete(org, made.uid)).toBe(true);
    expect(await repo.find(v, made.uid)).toBeNull();
  });

  it('keeps to the limit when creations race', async () => {
    const account = await person('dash_limit');
    const v = as(account, ['viewer'], account);
    const made = await Promise.all(Array.from({ length: 6 }, (_, i) => repo.create(v, { name: `d${i}`, widgets: [], shared_role: null }, 4)));
    expect(made.filter((d) => d !== null)).toHaveLength(4);
    expect(await repo.list(v)).toHaveLength(4);
  });

  it('names the EUIs the account does not reach, in the order given', async () => {
    const [{ uid }] = await ds.query(`INSERT INTO devices (eui, owner_id, label) VALUES ('00000000000000D1', $1, 'owned') RETURNING uid`, [org]);
    await ds.query(`INSERT INTO devices (eui, owner_id, label) VALUES ('00000000000000D2', $1, 'shared')`, [other]);
    await ds.query(`INSERT INTO device_shares (device_id, account_id) SELECT uid, $1 FROM devices WHERE eui = '00000000000000D2'`, [org]);
    await ds.query(`INSERT INTO devices (eui, owner_id, label, deleted_at) VALUES ('00000000000000D3', $1, 'deleted', now())`, [org]);
    expect(uid).toBeGreaterThan(0);
    expect(await repo.unknownEuis(org, ['00000000000000D9', '00000000000000D1', '00000000000000D3', '00000000000000D2'])).toEqual([
      '00000000000000D9',
      '00000000000000D3',
    ]);
    expect(await repo.unknownEuis(org, [])).toEqual([]);
  });
});
