import { Injectable } from '@nestjs/common';
import { cacheRebuildJobId } from '@dts/domain';
import { CacheChunkStore, DataCacheRepository } from '@dts/persistence';
import { JobQueue } from '@dts/platform';
import type { Response } from 'express';

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

  async serve(deviceUid: number, res: Response): Promise<boolean> {
    const status = await this.cache.status(deviceUid);
    if (status.version === 0) return false; // no data yet: nothing worth caching
    if (status.builtVersion !== status.version) {
      await this.requestRebuild(deviceUid, status.version);
      return false;
    }
    const chunks = this.chunks.read(deviceUid, status.version);
    const first = await chunks.next();
    // A fresh entry whose chunks expired (Redis TTL): rebuild rather than serve a partial body.
    if (first.done && status.rows > 0) {
      await this.requestRebuild(deviceUid, status.version);
      return false;
    }
    res.status(200).type('application/json');
    res.write('{"errors":[],"debug":[],"meta":[],"messages":[],"data":[');
    let next = first;
    let wrote = false;
    while (!next.done) {
      if (next.value.length > 0) {
        res.write((wrote ? ',' : '') + next.value);
        wrote = true;
      }
      next = await chunks.next();
    }
    res.end('],"success":true}');
    return true;
  }

  requestRebuild(deviceUid: number, version: number): Promise<unknown> {
    return this.jobs.enqueue('cache.rebuild', { deviceUid }, { jobId: cacheRebuildJobId(deviceUid, version) });
  }
}
