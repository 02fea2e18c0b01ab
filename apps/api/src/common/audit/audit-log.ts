import { type BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { type AuditRecord, AuditRepository } from '@dts/persistence';
import { MetricsService } from '@dts/platform';

/** A batch is written this long after its first record at the latest. */
export const AUDIT_FLUSH_MS = 200;
/** Records per statement; a full batch is written at once. */
export const AUDIT_BATCH = 500;
/** Records held while the database cannot take them; past it, new ones are dropped and counted. */
export const AUDIT_BUFFER_MAX = 50_000;
/** Wait before trying again after a write failed. */
const RETRY_MS = 1_000;

/**
 * The audit log's writer (docs/architecture.md, "The audit log"). A call's record is taken after
 * its answer has gone (audit.middleware.ts) and written with others in one statement within
 * AUDIT_FLUSH_MS, so that recording costs the call nothing on its way and one INSERT costs many
 * calls one round trip. Stated bounds: a record reaches the database within AUDIT_FLUSH_MS plus one
 * write while the database answers; while it does not, up to AUDIT_BUFFER_MAX records wait and are
 * written when it answers again, and records past that are dropped and counted
 * (`dts_audit_records_total{outcome="dropped"}`) — the call itself is never failed or held by its
 * record. A graceful stop writes what is held; a crash loses at most the last AUDIT_FLUSH_MS.
 */
@Injectable()
export class AuditLog implements BeforeApplicationShutdown {
  private readonly logger = new Logger('AuditLog');
  private pending: AuditRecord[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> | null = null;
  private droppedSinceTold = 0;
  /** The last write failed: the next waits RETRY_MS, and flush() stops. */
  private writeFailed = false;

  constructor(
    private readonly repository: AuditRepository,
    private readonly metrics: MetricsService,
  ) {}

  record(record: AuditRecord): void {
    if (this.pending.length >= AUDIT_BUFFER_MAX) {
      if (this.droppedSinceTold++ === 0)
        this.logger.error(`audit log: ${AUDIT_BUFFER_MAX} records wait for the database; new ones are dropped until it answers`);
      this.metrics.audit('dropped', 1);
      return;
    }
    this.pending.push(record);
    if (this.pending.length >= AUDIT_BATCH) this.writeSoon(0);
    else this.writeSoon(AUDIT_FLUSH_MS);
  }

  /** Writes everything held now (tests, and a graceful stop). Resolves once written or once a write failed. */
  async flush(): Promise<void> {
    this.clearTimer();
    // A write in flight holds records taken out of `pending`: they are part of "everything".
    await this.writing;
    while (this.pending.length > 0) {
      await this.writeBatch();
      if (this.writeFailed) return;
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.flush();
    if (this.pending.length > 0) this.logger.error(`audit log: ${this.pending.length} records not written at shutdown (the database did not answer)`);
  }

  private writeSoon(ms: number): void {
    if (this.writing) return; // the write in progress schedules the next
    if (this.timer && ms > 0) return;
    this.clearTimer();
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.writeBatch();
    }, ms);
    this.timer.unref();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private writeBatch(): Promise<void> {
    if (this.writing) return this.writing;
    const batch = this.pending.splice(0, AUDIT_BATCH);
    if (batch.length === 0) return Promise.resolve();
    this.writing = this.repository
      .append(batch)
      .then(() => {
        this.writeFailed = false;
        this.metrics.audit('written', batch.length);
        if (this.droppedSinceTold > 0) {
          this.logger.warn(`audit log: writing again; ${this.droppedSinceTold} records were dropped meanwhile`);
          this.droppedSinceTold = 0;
        }
      })
      .catch((error: Error) => {
        this.writeFailed = true;
        // Back at the front, in order; the newest beyond the bound are the ones that go.
        this.pending = [...batch, ...this.pending];
        const over = this.pending.length - AUDIT_BUFFER_MAX;
        if (over > 0) {
          this.pending.splice(AUDIT_BUFFER_MAX);
          this.metrics.audit('dropped', over);
        }
        this.logger.warn(`audit log: ${batch.length} records not written yet (${error.message}); trying again`);
      })
      .finally(() => {
        this.writing = null;
        if (this.pending.length > 0) this.writeSoon(this.writeFailed ? RETRY_MS : this.pending.length >= AUDIT_BATCH ? 0 : AUDIT_FLUSH_MS);
      });
    return this.writing;
  }
}
