import { Inject, Injectable } from '@nestjs/common';
import { HealthCheckService, HealthIndicatorService, type HealthCheckResult, type HealthIndicatorFunction } from '@nestjs/terminus';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { JobQueue } from '../queue/job-queue';
import { REDIS_CLIENT, type RedisClient } from '../redis/redis';
import { clusterMasters } from '../redis/redis-keys';

const CHECK_TIMEOUT_MS = 2_000;

/**
 * Liveness says the process runs; readiness says it can serve: the database answers with every
 * migration applied, Redis answers when configured, and the queues answer.
 */
@Injectable()
export class ReadinessService {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicator: HealthIndicatorService,
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(REDIS_CLIENT) private readonly redis: RedisClient | null,
    private readonly jobs: JobQueue,
  ) {}

  private stoppingSince: Date | null = null;

  /**
   * From now on readiness answers 503: the process received SIGTERM and drains. An orchestrator
   * takes it out of rotation at once, while in-flight requests finish.
   */
  markStopping(): void {
    this.stoppingSince ??= new Date();
  }

  live(): Promise<HealthCheckResult> {
    return this.health.check([() => this.indicator.check('process').up({ uptime_s: Math.round(process.uptime()) })]);
  }

  /** Throws Terminus' ServiceUnavailableException (with the details) when anything is down. */
  ready(): Promise<HealthCheckResult> {
    const since = this.stoppingSince;
    if (since) return this.health.check([() => this.indicator.check('process').down({ message: `shutting down since ${since.toISOString()}` })]);
    const checks: HealthIndicatorFunction[] = [
      () =>
        this.indicator
          .check('database')
          .attempt(async () => {
            await this.ds.query('SELECT 1');
            if (await this.ds.showMigrations()) throw new Error('migrations are pending');
          })
          .withTimeout(CHECK_TIMEOUT_MS),
      () =>
        this.indicator
          .check('queue')
          .attempt(async () => ({ depth: await this.jobs.depths() }))
          .withTimeout(CHECK_TIMEOUT_MS),
    ];
    const redis = this.redis;
    if (redis)
      checks.push(() =>
        this.indicator
          .check('redis')
          .attempt(async () => {
            if (!redis.isCluster) return void (await redis.ping());
            const masters = clusterMasters(redis);
            // A cluster answers for a key only through the master owning its slot: every master must answer.
            if (masters.length === 0) throw new Error(`the cluster client is ${redis.status}, with no master known`);
            await Promise.all(masters.map((m) => m.ping()));
            return { masters: masters.length };
          })
          .withTimeout(CHECK_TIMEOUT_MS),
      );
    return this.health.check(checks);
  }
}
