import type { DataSource } from 'typeorm';
import type { LiveBus } from '../live/live-bus';
import type { Statements } from '../sql/statements';
import type { TimePartitionsRepository } from '../timeseries/time-partitions.repository';
import type { IngestTargetsCache } from './ingest-targets.cache';
import { IngestRepository, MAX_UPLINKS_PER_TRANSACTION, type StoreOutcome, type UplinkToStore } from './ingest.repository';

/** The coalescing of deliveries into transactions, with the transaction itself replaced. */
describe('IngestRepository: deliveries written together', () => {
  const uplink = (messageId: string): UplinkToStore => ({ messageId }) as UplinkToStore;
  const storedOf = (outcomes: StoreOutcome[]) => outcomes.filter((o) => o === 'stored').length;
  let transactions: string[][];
  let repo: IngestRepository;

  beforeEach(() => {
    transactions = [];
    repo = new IngestRepository({} as DataSource, {} as LiveBus, {} as Statements, {} as IngestTargetsCache<never>, {} as TimePartitionsRepository);
    // Each "transaction" takes a tick, stores every message id not seen before, and fails when it holds "poison".
    const seen = new Set<string>();
    jest.spyOn(repo as unknown as { storeNow: (u: UplinkToStore[]) => Promise<StoreOutcome[]> }, 'storeNow').mockImplementation(async (uplinks) => {
      const ids = uplinks.map((u) => u.messageId!);
      transactions.push(ids);
      await new Promise((r) => setTimeout(r, 5));
      if (ids.includes('poison')) throw new Error('constraint violated');
      return ids.map((id): StoreOutcome => (seen.has(id) ? 'redelivery' : (seen.add(id), 'stored')));
    });
  });

  it('writes deliveries that arrive meanwhile in shared transactions, each caller getting its own count', async () => {
    // Delivery i holds m{i} and d{i}; the odd ones also d{i - 1}, a redelivery of the even one before it.
    const deliveries = Array.from({ length: 40 }, (_, i) => [uplink(`m${i}`), uplink(`d${i}`), ...(i % 2 ? [uplink(`d${i - 1}`)] : [])]);
    const results = await Promise.all(deliveries.map((d) => repo.store(d)));
    expect(results.map(storedOf)).toEqual(Array(40).fill(2));
    expect(results[1]).toEqual(['stored', 'stored', 'redelivery']);
    // The same deliveries again are redeliveries only.
    expect((await Promise.all(deliveries.map((d) => repo.store(d)))).map(storedOf)).toEqual(Array(40).fill(0));
    // Two transactions start at once; everything that waited meanwhile shares the next ones.
    expect(transactions.length).toBeLessThan(10);
    expect(transactions.flat()).toHaveLength(2 * 100);
  });

  it('fails only the delivery that fails its transaction', async () => {
    const first = repo.store([uplink('a')]);
    const outcomes = await Promise.allSettled([first, repo.store([uplink('b')]), repo.store([uplink('poison')]), repo.store([uplink('c')])]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(outcomes.filter((o) => o.status === 'fulfilled').map((o) => (o as PromiseFulfilledResult<StoreOutcome[]>).value)).toEqual([
      ['stored'],
      ['stored'],
      ['stored'],
    ]);
  });

  it('never puts more than MAX_UPLINKS_PER_TRANSACTION uplinks in one transaction', async () => {
    const big = (tag: string) => Array.from({ length: 2_000 }, (_, i) => uplink(`${tag}${i}`));
    await Promise.all(['a', 'b', 'c', 'd', 'e', 'f'].map((t) => repo.store(big(t))));
    expect(Math.max(...transactions.map((t) => t.length))).toBeLessThanOrEqual(MAX_UPLINKS_PER_TRANSACTION);
    expect(transactions.flat()).toHaveLength(12_000);
  });

  it('answers at once for an empty delivery', async () => {
    await expect(repo.store([])).resolves.toEqual([]);
    expect(transactions).toEqual([]);
  });
});
