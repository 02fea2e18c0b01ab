import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { createRedisClient, REDIS_CLIENT, type RedisClient, whenClusterReady } from './redis';

/** Provides REDIS_CLIENT: the shared store's client, or null when the database is the store. */
@Module({})
export class RedisModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS_CLIENT) private readonly redis: RedisClient | null) {}

  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: RedisModule,
      global: true,
      providers: [
        {
          provide: REDIS_CLIENT,
          // A cluster client refuses commands until it is ready (no offline queue): the service starts once it is.
          useFactory: async () => {
            const redis = createRedisClient(config);
            if (redis) await whenClusterReady(redis, 30_000);
            return redis;
          },
        },
      ],
      exports: [REDIS_CLIENT],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis?.quit().catch(() => undefined);
  }
}
