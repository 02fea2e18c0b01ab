import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '../data-source';
import { suiteDatabase, suiteTimeseriesSettings } from '../testing/suite-database';
import { TimePartitionsRepository } from '../timeseries/time-partitions.repository';
import { type AuditRecord, AuditRepository } from './audit.repository';

const DAY = 86_400_000;
const SETTINGS = suiteTimeseriesSettings({ auditRetentionDays: 30 });
const record = (at: Date, over: Partial<AuditRecord> = {}): AuditRecord => ({
  at,
  accountId: 7,
  organisationId: null,
  username: 'Alice',
  tokenUid: null,
  via: 'session',
  action: 'POST /user/device/{eui}',
  target: { eui: '70B3D57ED0000001' },
  status: 201,
  ip: '127.0.0.1',
  requestId: 'r-1',
  ...over,
});

/** The audit log's storage, on both databases: one statement per batch, keyset pages newest first, whole partitions past the retention. */
describe('AuditRepository', () => {
  let ds: DataSource;
  let stop: () => Promise<void>;
  let audit: AuditRepository;
  let partitions: TimePartitionsRepository;

  beforeAll(async () => {
    const db = await suiteDatabase('audit');
    stop = db.stop;
    await runMigrations({ url: db.url, poolSize: 1 });
    ds = await new DataSource(dataSourceOptions({ url: db.url, poolSize: 2 })).initialize();
    partitions = new TimePartitionsRepository(ds, SETTINGS);
    audit = new AuditRepository(ds, partitions, SETTINGS);
  });
  afterAll(async () => {
    await ds?.destroy();
    await stop?.();
  });

  it('appends a batch in one statement and reads it back newest first, filtered, in pages without repeats', async () => {
    const base = Date.now() - 60_000;
    await audit.append([
      ...Array.from({ length: 5 }, (_, i) => record(new Date(base + i * 1_000), { requestId: `r-${i}` })),
      record(new Date(base + 10_000), { accountId: null, username: 'ALICE', via: null, action: 'POST /auth/login', target: {}, status: 401 }),
    ]);
    const all = await audit.page({}, 100, null);
    expect(all.map((r) => r.request_id)).toEqual(['r-1', 'r-4', 'r-3', 'r-2', 'r-1', 'r-0']);
    expect(all[0]).toMatchObject({ username: 'ALICE', status: 401, target: {}, via: null });
    expect((await audit.page({ result: 'failure' }, 100, null)).map((r) => r.action)).toEqual(['POST /auth/login']);
    expect(await audit.page({ username: 'alice' }, 100, null)).toHaveLength(6);
    expect(await audit.page({ accountId: 7, action: 'user/DEVICE' }, 100, null)).toHaveLength(5);
    expect(await audit.page({ from: new Date(base + 3_500) }, 100, null)).toHaveLength(2);
    const pages: string[] = [];
    let after: { at: string; id: string } | null = null;
    for (;;) {
      const page = await audit.page({}, 4, after);
      pages.push(...page.map((r) => r.id));
      if (page.length < 4) break;
      after = { at: page.at(-1)!.at_key, id: page.at(-1)!.id };
    }
    expect(pages).toEqual(all.map((r) => r.id));
    const batches: number[] = [];
    for await (const batch of audit.all({ accountId: 7 })) batches.push(batch.length);
    expect(batches).toEqual([5]);
  });

  it('writes a record past the partitions made ahead by making them, and drops whole partitions once the retention has passed them', async () => {
    const later = new Date(Date.now() + 400 * DAY);
    await audit.append([record(later, { requestId: 'far' })]);
    expect((await audit.page({}, 1, null))[0]!.request_id).toBe('far');
    // Nothing is past 30 days yet.
    expect(await audit.dropExpired(new Date())).toEqual([]);
    // Seen from a year on, the first partitions are: they go whole, the newest stays.
    const dropped = await audit.dropExpired(new Date(Date.now() + 365 * DAY));
    expect(dropped.map((p) => p.name)).toContain('audit_events_history');
    expect((await audit.page({}, 100, null)).map((r) => r.request_id)).toEqual(['far']);
  });
});
