import type { DataSource } from 'typeorm';
import type { ReadDatabase } from '../read/read-database';
import { READ_BATCH, UplinkReadsRepository } from './uplink-reads.repository';

/** A full batch of rows, as far as the keyset reader looks at them. */
const fullBatch = () => Array.from({ length: READ_BATCH }, (_, i) => ({ received_at: new Date(1_700_000_000_000 + i * 1000), uid: String(i + 1) }));

describe('the history reader’s read ahead', () => {
  const unhandled: unknown[] = [];
  const record = (reason: unknown) => unhandled.push(reason);
  beforeAll(() => process.on('unhandledRejection', record));
  afterAll(() => process.off('unhandledRejection', record));

  it('keeps a failed read ahead for the reader: no unhandled rejection while the batch before it is written', async () => {
    const lost = new Error('connection lost');
    const query = jest.fn().mockResolvedValueOnce(fullBatch()).mockRejectedValueOnce(lost);
    const reads = new UplinkReadsRepository({} as DataSource, { query } as unknown as ReadDatabase);
    const batches = reads.rows(7, { from: null, to: null, order: 'asc', limit: null });

    const first = await batches.next();
    expect(first.value).toHaveLength(READ_BATCH);
    // The reader is "writing" the first batch; the read ahead has already failed.
    expect(query).toHaveBeenCalledTimes(2);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(unhandled).toEqual([]);
    await expect(batches.next()).rejects.toBe(lost);
  });

  it('drops a failed read ahead of a reader that stopped early', async () => {
    const query = jest.fn().mockResolvedValueOnce(fullBatch()).mockRejectedValueOnce(new Error('connection lost'));
    const reads = new UplinkReadsRepository({} as DataSource, { query } as unknown as ReadDatabase);
    const batches = reads.dataRows(7, { from: null, to: null, order: 'desc', limit: null });
    await batches.next();
    await batches.return(undefined);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(unhandled).toEqual([]);
  });

  it('asks for no batch past the limit', async () => {
    const query = jest.fn().mockResolvedValueOnce(fullBatch().slice(0, 10));
    const reads = new UplinkReadsRepository({} as DataSource, { query } as unknown as ReadDatabase);
    const got = [];
    for await (const batch of reads.rows(7, { from: null, to: null, order: 'asc', limit: 10 })) got.push(batch);
    expect(got).toHaveLength(1);
    expect(query).toHaveBeenCalledTimes(1);
    expect(query.mock.calls[0][1]).toEqual([7, null, null, 10]);
  });
});
