import { Redis } from 'ioredis';
import type { AppConfig } from '../config/app-config';

export const REDIS_CLIENT = Symbol('REDIS_CLIENT');

/** A client for the shared store, or null when REDIS_URL is unset (the database is the store then). */
export function createRedisClient(config: AppConfig): Redis | null {
  if (!config.redis.url) return null;
  return new Redis(config.redis.url, {
    // Commands wait for a reconnect rather than failing at once; a long outage surfaces as 503.
    maxRetriesPerRequest: 3,
    // Reconnect every 50, 100, … ms, at most every 500 ms (ioredis' default grows to 2 s): a request
    // waits at most ~1.5 s (three attempts) before its 503 while Redis is down, and the service
    // is back within half a second of Redis (measured by faults-services.e2e-spec.ts).
    retryStrategy: (times: number) => Math.min(times * 50, 500),
    enableReadyCheck: true,
    lazyConnect: false,
  });
}
