import { Redis } from 'ioredis';
import type { AppConfig } from '../config/app-config';

export const REDIS_CLIENT = Symbol('REDIS_CLIENT');

/** A client for the shared store, or null when REDIS_URL is unset (the database is the store then). */
export function createRedisClient(config: AppConfig): Redis | null {
  if (!config.redis.url) return null;
  return new Redis(config.redis.url, {
    // Commands wait for a reconnect rather than failing at once; a long outage surfaces as 503.
    maxRetriesPerRequest: 3,
    enableReadyCheck: true,
    lazyConnect: false,
  });
}
