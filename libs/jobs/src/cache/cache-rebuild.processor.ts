import { Processor } from '@nestjs/bullmq';
import { type JobPayloads, QUEUES, toDataRowWire } from '@dts/domain';
import { CACHE_CHUNK_ROWS, CacheChunkStore, DataCacheRepository, UplinkReadsRepository } from '@dts/persistence';
import { JobProcessor, PROCESSOR_OPTIONS } from '../job-processor';

/**
 * Renders a device's data rows (the unfiltered data view) into chunks for the current cache
 * version. If the version moves on while it runs, the build is discarded: a stale rendering is
 * never marked fresh. Idempotent: a rerun writes the same chunks again.
 */
@Processor(QUEUES.cacheRebuild, PROCESSOR_OPTIONS)
export class CacheRebuildProcessor extends JobProcessor<'cache.rebuild'> {
  readonly job = 'cache.rebuild' as const;

  constructor(
    private readonly cache: DataCacheRepository,
    private readonly chunks: CacheChunkStore,
    private readonly reads: UplinkReadsRepository,
  ) {
    super();
  }

  /** An invalidation while this runs has a job of its own (its version is new): one build is enough. */
  protected async handle(payload: JobPayloads['cache.rebuild']): Promise<{ version: number; rows: number; fresh: boolean }> {
    const { deviceUid } = payload;
    const version = await this.cache.version(deviceUid);
    let rows = 0;
    let bytes = 0;
    let chunk = 0;
    let parts: string[] = [];
    const flush = async () => {
      const body = parts.join(',');
      await this.chunks.write(deviceUid, version, chunk++, body);
      bytes += Buffer.byteLength(body);
      parts = [];
    };
    for await (const batch of this.reads.dataRowsForCache(deviceUid)) {
      for (const row of batch) {
        parts.push(JSON.stringify(toDataRowWire(row)));
        rows++;
        if (parts.length === CACHE_CHUNK_ROWS) await flush();
      }
    }
    if (parts.length > 0) await flush();
    const fresh = await this.cache.finishBuild(deviceUid, version, rows, bytes);
    await this.chunks.prune(deviceUid, fresh ? version : null);
    return { version, rows, fresh };
  }
}
