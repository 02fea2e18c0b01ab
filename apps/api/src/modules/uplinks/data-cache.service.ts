import { Injectable } from '@nestjs/common';
import { cacheRebuildJobId } from '@dts/domain';
import { CacheChunkStore, DataCacheRepository } from '@dts/persistence';
import { JobQueue } from '@dts/platform';

/**
 * Serves a device's unfiltered data view from its cache entry when the entry is fresh (built for
 * the current version); otherwise says no and has the worker rebuild it, and the caller reads the
 * database. A read therefore never sees rows older than the latest invalidation.
 */
@Injectable()
export class DataCacheService {
  constructor(
    private readonly cache: DataCacheRepository,
    private readonly chunks: CacheChunkStore,
    private readonly jobs: JobQueue,
  ) {}

  /**
   * The entry's rendered rows (JSON text, in batches of one chunk) when it is fresh; null when the
   * caller must read the database (no data yet, a stale entry, or chunks gone from Redis).
   */
  async fresh(deviceUid: number): Promise<AsyncIterable<string[]> | null> {
    const status = await this.cache.status(deviceUid);
    if (status.version === 0) return null; // no data yet: nothing worth caching
    if (status.builtVersion !== status.version) {
      await this.requestRebuild(deviceUid, status.version);
      return null;
    }
    const chunks = this.chunks.read(deviceUid, status.version);
    const first = await chunks.next();
    // A fresh entry whose chunks expired (Redis TTL): rebuild rather than serve a partial body.
    if (first.done && status.rows > 0) {
      await this.requestRebuild(deviceUid, status.version);
      return null;
    }
    return (async function* () {
      for (let next = first; !next.done; next = await chunks.next()) if (next.value.length > 0) yield [next.value];
    })();
  }

  requestRebuild(deviceUid: number, version: number): Promise<unknown> {
    return this.jobs.enqueue('cache.rebuild', { deviceUid }, { jobId: cacheRebuildJobId(deviceUid, version) });
  }
}
