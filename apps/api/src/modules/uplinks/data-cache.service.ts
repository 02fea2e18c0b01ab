import { Injectable, Logger } from '@nestjs/common';
import { cacheRebuildJobId, lastDataRowUid } from '@dts/domain';
import { CACHE_CHUNK_ROWS, CACHE_RANGE, CacheChunkStore, DataCacheRepository, UplinkReadsRepository } from '@dts/persistence';
import { JobQueue } from '@dts/platform';

/**
 * Serves a device's unfiltered data view from its cache entry when the entry is fresh (built for
 * the current version); otherwise says no and has the worker rebuild it, and the caller reads the
 * database. A read therefore never sees rows older than the latest invalidation.
 *
 * The cache never fails a read nor shortens one: when its store fails or a chunk is missing
 * (Redis restarted, or evicted a key under memory pressure) after part of the body was sent, the
 * rest comes from the database, after the last row served.
 */
@Injectable()
export class DataCacheService {
  private readonly logger = new Logger(DataCacheService.name);

  constructor(
    private readonly cache: DataCacheRepository,
    private readonly chunks: CacheChunkStore,
    private readonly reads: UplinkReadsRepository,
    private readonly jobs: JobQueue,
  ) {}

  /**
   * The entry's rendered rows (JSON text, in batches of one chunk) when it is fresh; null when the
   * caller must read the database (no data yet, a stale entry, or chunks gone from Redis).
   */
  async fresh(deviceUid: number): Promise<{ chunks: AsyncIterable<string[]>; rows: number } | null> {
    const status = await this.cache.status(deviceUid);
    if (status.version === 0) return null; // no data yet: nothing worth caching
    if (status.builtVersion !== status.version) {
      this.rebuildLater(deviceUid, status.version);
      return null;
    }
    const chunks = this.chunks.read(deviceUid, status.version);
    let first: IteratorResult<string>;
    try {
      first = await chunks.next();
    } catch (error) {
      this.logger.warn(`data cache of device ${deviceUid} unreadable, read from the database: ${(error as Error).message}`);
      return null;
    }
    // A fresh entry whose chunks expired (Redis TTL): rebuild rather than serve a partial body.
    if (first.done && status.rows > 0) {
      this.rebuildLater(deviceUid, status.version);
      return null;
    }
    return { chunks: this.served(deviceUid, status.version, Math.ceil(status.rows / CACHE_CHUNK_ROWS), first, chunks), rows: status.rows };
  }

  requestRebuild(deviceUid: number, version: number): Promise<unknown> {
    return this.jobs.enqueue('cache.rebuild', { deviceUid }, { jobId: cacheRebuildJobId(deviceUid, version) });
  }

  /**
   * Asks for a rebuild without waiting for it to be queued: the read is served from the database
   * either way, and the queue's client waits for Redis rather than failing, so awaiting it held a
   * read for the whole of a Redis outage (10 s in faults-services.e2e-spec.ts). Lost, the request is
   * made again by the next read of a stale entry (one job per entry version).
   */
  private rebuildLater(deviceUid: number, version: number): void {
    void this.requestRebuild(deviceUid, version).catch((error: Error) =>
      this.logger.warn(`data cache rebuild of device ${deviceUid} not requested: ${error.message}`),
    );
  }

  private async *served(
    deviceUid: number,
    version: number,
    expected: number,
    first: IteratorResult<string>,
    chunks: AsyncGenerator<string>,
  ): AsyncGenerator<string[]> {
    let last: string | null = null;
    let count = 0;
    let failure: Error | null = null;
    for (let next = first; !next.done;) {
      count++;
      if (next.value.length > 0) {
        last = next.value;
        yield [next.value];
      }
      try {
        next = await chunks.next();
      } catch (error) {
        failure = error as Error;
        break;
      }
    }
    if (count >= expected && !failure) return;
    this.logger.warn(
      `data cache of device ${deviceUid} ended after ${count} of ${expected} chunks, the rest from the database: ${failure?.message ?? 'a chunk is missing'}`,
    );
    if (!failure) this.rebuildLater(deviceUid, version);
    const uid = last === null ? null : lastDataRowUid(last);
    const after = uid === null ? null : await this.reads.rowKey(deviceUid, uid);
    // The last row served is gone (deleted meanwhile): where to go on is unknown, and rows served
    // twice or skipped would be a wrong answer, so the body is cut as the failure would have cut it.
    if (uid !== null && after === null) throw failure ?? new Error(`the data cache of device ${deviceUid} lost a chunk and its last row served is gone`);
    yield* this.reads.dataJson(deviceUid, CACHE_RANGE, after);
  }
}
