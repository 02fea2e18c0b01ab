import { Redis } from 'ioredis';
import type { RedisClient } from '../redis/redis';
import { type LocalRedisCluster, startRedisCluster } from './redis-cluster';

/** The two kinds of Redis the service runs on, as a suite on each of them gets them. */
export interface EachRedis {
  /** Filled before the suite's tests run: the single Redis of TEST_REDIS_URL and a cluster's client. */
  redis: Record<'single' | 'cluster', RedisClient>;
  /** The three-master cluster started for the suite (its nodes, to look at or stop one). */
  cluster(): LocalRedisCluster;
}

/**
 * A suite on both kinds of Redis the service supports: the single Redis of TEST_REDIS_URL and a
 * three-master Redis Cluster started for it (`body` usually runs `describe.each(['single',
 * 'cluster'])` over `redis`). Without TEST_REDIS_URL (the embedded pass of `npm test`) it is
 * skipped, saying so in its title.
 */
export function describeOnEachRedis(title: string, body: (each: EachRedis) => void): void {
  const single = process.env.TEST_REDIS_URL || null;
  const suite = single ? describe : describe.skip;
  suite(single ? title : `${title} (skipped: needs TEST_REDIS_URL, the Redis pass)`, () => {
    let cluster: LocalRedisCluster | undefined;
    const redis = {} as EachRedis['redis'];
    beforeAll(async () => {
      cluster = await startRedisCluster();
      redis.cluster = cluster.client();
      redis.single = new Redis(single!, { maxRetriesPerRequest: 3 });
    }, 120_000);
    afterAll(async () => {
      redis.cluster?.disconnect();
      redis.single?.disconnect();
      await cluster?.stop();
    });
    body({
      redis,
      cluster: () => {
        if (!cluster) throw new Error('the Redis Cluster is started in beforeAll');
        return cluster;
      },
    });
  });
}
