import { describeOnEachRedis } from '@dts/platform';
import { randomBytes } from 'node:crypto';
import { RedisCacheChunkStore } from './cache-chunk.store';

/*
 * The Redis cache chunk store on a three-master Redis Cluster started here and on the single Redis
 * of TEST_REDIS_URL. On a cluster a device's chunks spread over the masters, and pruning must find
 * them on every master (SCAN walks one server) and delete keys of many slots (a multi-key DEL is
 * refused with CROSSSLOT). In the PostgreSQL + Redis pass of `npm test`.
 */

describeOnEachRedis('the Redis cache chunk store on a single Redis and on a Redis Cluster', ({ redis, cluster }) => {
  /** Masters (by port) holding any of the keys. */
  async function mastersHolding(keys: string[]): Promise<Set<number>> {
    const ports = new Set<number>();
    for (const { port } of cluster().nodes) {
      const node = cluster().node(port);
      try {
        const held = await Promise.all(keys.map((k) => node.exists(k).catch(() => 0)));
        if (held.some(Boolean)) ports.add(port);
      } finally {
        node.disconnect();
      }
    }
    return ports;
  }

  describe.each(['single', 'cluster'] as const)('on a %s Redis', (kind) => {
    const prefix = `dts-chunks-${kind}-${randomBytes(3).toString('hex')}`;
    const key = (device: number, version: number, chunk: number) => `${prefix}:cache:${device}:${version}:${chunk}`;
    const read = async (store: RedisCacheChunkStore, device: number, version: number) => {
      const bodies: string[] = [];
      for await (const body of store.read(device, version)) bodies.push(body);
      return bodies;
    };

    it('prunes every chunk of the versions not kept, on every master, and nothing of other devices', async () => {
      const store = new RedisCacheChunkStore(redis[kind], prefix);
      const [device, other] = [7, 8];
      const chunks = 24;
      for (const version of [1, 2, 3]) for (let c = 0; c < chunks; c++) await store.write(device, version, c, `v${version}c${c}`);
      for (let c = 0; c < 3; c++) await store.write(other, 1, c, `other${c}`);
      expect(await read(store, device, 2)).toEqual(Array.from({ length: chunks }, (_, c) => `v2c${c}`));
      const old = [1, 2].flatMap((v) => Array.from({ length: chunks }, (_, c) => key(device, v, c)));
      if (kind === 'cluster') expect((await mastersHolding(old)).size).toBe(3);

      await store.prune(device, 3);
      for (const k of old) expect(await redis[kind].exists(k)).toBe(0);
      expect(await read(store, device, 3)).toHaveLength(chunks);
      expect(await read(store, other, 1)).toEqual(['other0', 'other1', 'other2']);

      await store.prune(device, null);
      expect(await read(store, device, 3)).toEqual([]);
      expect(await read(store, other, 1)).toHaveLength(3);
    });

    it('keeps the key names a single Redis has always had', async () => {
      const store = new RedisCacheChunkStore(redis[kind], prefix);
      await store.write(9, 4, 0, '{"a":1}');
      expect(await redis[kind].get(key(9, 4, 0))).toBe('{"a":1}');
      expect(await redis[kind].ttl(key(9, 4, 0))).toBeGreaterThan(6 * 86_400);
    });
  });
});
