import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { AppConfig } from '../config/app-config';
import { createRedisClient, REDIS_CLIENT } from './redis';

/** Provides REDIS_CLIENT: the shared store's client, or null when the database is the store. */
@Module({})
export class RedisModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS_CLIENT) private readonly redis: Redis | null) {}

  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: RedisModule,
      global: true,
      providers: [{ provide: REDIS_CLIENT, useFactory: () => createRedisClient(config) }],
      exports: [REDIS_CLIENT],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis?.quit().catch(() => undefined);
  }
}
