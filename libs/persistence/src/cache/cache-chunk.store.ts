import { deleteMany, type RedisClient, scanKeys } from '@dts/platform';
import type { DataSource } from 'typeorm';

/**
 * Where rendered cache chunks live: PostgreSQL by default, Redis when configured. A chunk is the
 * JSON of up to CACHE_CHUNK_ROWS data rows, comma-joined, stored under the version it was built for.
 */
export abstract class CacheChunkStore {
  abstract write(deviceUid: number, version: number, chunk: number, body: string): Promise<void>;
  abstract read(deviceUid: number, version: number): AsyncGenerator<string>;
  /** Removes every chunk of the device but those of `keepVersion`. */
  abstract prune(deviceUid: number, keepVersion: number | null): Promise<void>;
}

export const CACHE_CHUNK_ROWS = 5_000;

export class PgCacheChunkStore extends CacheChunkStore {
  constructor(private readonly ds: DataSource) {
    super();
  }

  async write(deviceUid: number, version: number, chunk: number, body: string): Promise<void> {
    await this.ds.query(
      'INSERT INTO data_cache_chunks (device_id, version, chunk, body) VALUES ($1, $2, $3, $4) ON CONFLICT (device_id, version, chunk) DO UPDATE SET body = EXCLUDED.body',
      [deviceUid, version, chunk, body],
    );
  }

  async *read(deviceUid: number, version: number): AsyncGenerator<string> {
    for (let chunk = 0; ; chunk++) {
      const rows: { body: string }[] = await this.ds.query('SELECT body FROM data_cache_chunks WHERE device_id = $1 AND version = $2 AND chunk = $3', [
        deviceUid,
        version,
        chunk,
      ]);
      const [row] = rows;
      if (!row) return;
      yield row.body;
    }
  }

  async prune(deviceUid: number, keepVersion: number | null): Promise<void> {
    await this.ds.query('DELETE FROM data_cache_chunks WHERE device_id = $1 AND ($2::int IS NULL OR version <> $2)', [deviceUid, keepVersion]);
  }
}

/** Chunks expire by themselves after a week: an entry nobody reads does not hold memory for ever. */
const CHUNK_TTL_SECONDS = 7 * 86_400;

/**
 * One key per chunk, `<prefix>:cache:<device>:<version>:<chunk>`: on a Redis Cluster the chunks of
 * a device (and the devices) spread over the masters by their own hash slots, so a large entry is
 * served by several nodes rather than one; the price is paid by prune, which scans every master.
 */
export class RedisCacheChunkStore extends CacheChunkStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {
    super();
  }

  private key(deviceUid: number, version: number, chunk: number) {
    return `${this.prefix}:cache:${deviceUid}:${version}:${chunk}`;
  }

  async write(deviceUid: number, version: number, chunk: number, body: string): Promise<void> {
    await this.redis.set(this.key(deviceUid, version, chunk), body, 'EX', CHUNK_TTL_SECONDS);
  }

  async *read(deviceUid: number, version: number): AsyncGenerator<string> {
    for (let chunk = 0; ; chunk++) {
      const body = await this.redis.get(this.key(deviceUid, version, chunk));
      if (body === null) return;
      yield body;
    }
  }

  async prune(deviceUid: number, keepVersion: number | null): Promise<void> {
    for await (const keys of scanKeys(this.redis, `${this.prefix}:cache:${deviceUid}:*`)) {
      const doomed = keys.filter((k) => keepVersion === null || k.split(':').at(-2) !== String(keepVersion));
      await deleteMany(this.redis, doomed);
    }
  }
}
