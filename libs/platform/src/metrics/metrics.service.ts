import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ALL_JOB_NAMES, type JobName } from '@dts/domain';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import { readBuildInfo } from '../build-info';
import { JobQueue } from '../queue/job-queue';

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/** Connections of TypeORM's pg pool: opened, idle, and callers waiting for one. */
export function databasePoolStats(ds: DataSource): PoolStats {
  // TypeORM's postgres driver keeps its pg.Pool as `master`; pg counts its clients itself.
  const pool = (ds.driver as unknown as { master?: { totalCount: number; idleCount: number; waitingCount: number } }).master;
  return { total: pool?.totalCount ?? 0, idle: pool?.idleCount ?? 0, waiting: pool?.waitingCount ?? 0 };
}

export type JobOutcome = 'completed' | 'failed' | 'retried';

/**
 * `process`: this process's own state, scraped from every instance at `/metrics`. `cluster`: the
 * state of the whole deployment (queues, commands), the same whichever process reads it, so it is
 * served once, at `/metrics/cluster`, which Prometheus scrapes through the load balancer: summing
 * N instances' copies would count it N times.
 */
export type MetricScope = 'process' | 'cluster';

/** A gauge whose samples are read when Prometheus scrapes (`read` returns label sets and values). */
export interface ScrapeGauge<L extends string> {
  name: string;
  help: string;
  labelNames: readonly L[];
  scope: MetricScope;
  read: () => Promise<[Partial<Record<L, string>>, number][]>;
}

const KNOWN_JOBS = new Set<string>(ALL_JOB_NAMES);

/**
 * The process's Prometheus registries and every metric of the service; each family of ours is
 * named `dts_…` (the default `process_*`/`nodejs_*` ones keep prom-client's names). Counters move
 * where the events happen (HTTP, ingestion, jobs); gauges of state (queues, pool, commands) are
 * read at scrape time, so an idle process costs nothing. Label values are bounded: route
 * templates, job and queue names, network and reason codes — never URLs, EUIs or account ids.
 */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();
  /** Gauges of the whole deployment (MetricScope `cluster`), served apart from the process's own. */
  readonly clusterRegistry = new Registry();
  private readonly logger = new Logger('metrics');

  readonly httpDuration = new Histogram({
    name: 'dts_http_request_duration_seconds',
    help: 'HTTP requests by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  private readonly uplinksAccepted = new Counter({
    name: 'dts_uplinks_accepted_total',
    help: 'Uplinks stored, by network route',
    labelNames: ['network'] as const,
    registers: [this.registry],
  });

  private readonly uplinksDuplicate = new Counter({
    name: 'dts_uplinks_duplicate_total',
    help: 'Redelivered uplinks that were already stored, by network route',
    labelNames: ['network'] as const,
    registers: [this.registry],
  });

  private readonly uplinksRejected = new Counter({
    name: 'dts_uplinks_rejected_total',
    help: 'Uplinks refused in an accepted delivery, by network route and rejection code',
    labelNames: ['network', 'reason'] as const,
    registers: [this.registry],
  });

  private readonly decoderFailures = new Counter({
    name: 'dts_decoder_failures_total',
    help: 'Uplinks decoded with payload_valid false at ingestion, by decoder',
    labelNames: ['decoder'] as const,
    registers: [this.registry],
  });

  private readonly auditRecords = new Counter({
    name: 'dts_audit_records_total',
    help: 'Audit log records by outcome: written, or dropped (the buffer full while the database could not take them)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  private readonly jobOutcomes = new Counter({
    name: 'dts_jobs_total',
    help: 'Job attempts by job name and outcome (completed, failed for good, or retried)',
    labelNames: ['job', 'outcome'] as const,
    registers: [this.registry],
  });

  constructor(
    private readonly queues: JobQueue,
    @InjectDataSource() private readonly ds: DataSource,
  ) {
    collectDefaultMetrics({ register: this.registry });
    const build = readBuildInfo();
    new Gauge({
      name: 'dts_build_info',
      help: 'Always 1; the labels say which build and Node.js this process runs',
      labelNames: ['version', 'commit', 'node_version'] as const,
      registers: [this.registry],
    }).set({ version: build.version, commit: build.commit ?? 'unknown', node_version: process.version }, 1);
    this.scrapeGauge({
      name: 'dts_queue_depth',
      help: 'Jobs waiting, delayed or running, per queue (whole deployment)',
      labelNames: ['queue'],
      scope: 'cluster',
      read: async () => Object.entries(await this.queues.depths()).map(([queue, depth]) => [{ queue }, depth]),
    });
    this.scrapeGauge({
      name: 'dts_db_pool_connections',
      help: 'Database pool of this process: total and idle connections, and callers waiting for one',
      labelNames: ['state'],
      scope: 'process',
      read: async () => Object.entries(databasePoolStats(this.ds)).map(([state, n]) => [{ state }, n]),
    });
  }

  /** Registers a gauge read at scrape time. A failing read leaves it empty for that scrape only. */
  scrapeGauge<L extends string>(spec: ScrapeGauge<L>): void {
    const logger = this.logger;
    new Gauge<L>({
      name: spec.name,
      help: spec.help,
      labelNames: spec.labelNames,
      registers: [spec.scope === 'cluster' ? this.clusterRegistry : this.registry],
      async collect() {
        this.reset();
        try {
          for (const [labels, value] of await spec.read()) this.set(labels, value);
        } catch (error) {
          logger.warn(`${spec.name} could not be read: ${error instanceof Error ? error.message : String(error)}`);
        }
      },
    });
  }

  uplinks(network: string, counts: { accepted: number; duplicates: number; rejected: readonly { code: string }[] }): void {
    if (counts.accepted > 0) this.uplinksAccepted.inc({ network }, counts.accepted);
    if (counts.duplicates > 0) this.uplinksDuplicate.inc({ network }, counts.duplicates);
    for (const r of counts.rejected) this.uplinksRejected.inc({ network, reason: r.code });
  }

  decoderFailed(decoder: string): void {
    this.decoderFailures.inc({ decoder });
  }

  audit(outcome: 'written' | 'dropped', n: number): void {
    if (n > 0) this.auditRecords.inc({ outcome }, n);
  }

  jobOutcome(job: string, outcome: JobOutcome): void {
    // A job of a name no code knows is one label value, not one per name someone enqueued.
    this.jobOutcomes.inc({ job: KNOWN_JOBS.has(job) ? (job as JobName) : 'unknown', outcome });
  }

  /** The exposition text of one scope and its content type. */
  async scrape(scope: MetricScope = 'process'): Promise<{ contentType: string; body: string }> {
    const registry = scope === 'cluster' ? this.clusterRegistry : this.registry;
    // prom-client writes a NaN sample (the event-loop lag's mean when two scrapes come within its
    // sampling interval) as `Nan`; the exposition format spells it `NaN`.
    return { contentType: registry.contentType, body: (await registry.metrics()).replace(/ Nan$/gm, ' NaN') };
  }
}
