import { Injectable } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { RateLimitsRepository } from '@dts/persistence';

/** Throttler counters in PostgreSQL, shared by all api instances when no Redis is configured. */
@Injectable()
export class PgThrottlerStorage implements ThrottlerStorage {
  constructor(private readonly limits: RateLimitsRepository) {}

  increment(key: string, ttl: number, limit: number, blockDuration: number): ReturnType<ThrottlerStorage['increment']> {
    return this.limits.increment(key, ttl, limit, blockDuration);
  }
}
