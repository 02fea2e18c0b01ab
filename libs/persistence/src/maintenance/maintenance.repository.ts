import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { queryOne } from '../sql/sql-results';

export interface PurgeCounts {
  sessions: number;
  passwordResets: number;
  emailVerifications: number;
  rateLimits: number;
  mailCounts: number;
  mailDigests: number;
}

@Injectable()
export class MaintenanceRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async ping(): Promise<void> {
    await this.ds.query('SELECT 1');
  }

  /**
   * Removes what can no longer be used: expired sessions, spent reset and verification tokens (a used
   * verification token is kept a day, so that a second click on its link still answers), ended rate
   * windows and hourly mail counts, digests sent over a month ago.
   */
  async purgeExpired(): Promise<PurgeCounts> {
    const count = async (sql: string) => (await queryOne<{ n: number }>(this.ds, `WITH d AS (${sql} RETURNING 1) SELECT count(*)::int AS n FROM d`)).n;
    return {
      sessions: await count('DELETE FROM sessions WHERE expires_at <= now()'),
      passwordResets: await count("DELETE FROM password_resets WHERE expires_at <= now() - interval '1 day' OR used_at IS NOT NULL"),
      emailVerifications: await count("DELETE FROM email_verifications WHERE expires_at <= now() - interval '1 day' OR used_at <= now() - interval '1 day'"),
      rateLimits: await count('DELETE FROM rate_limits WHERE expires_at <= now() AND (blocked_until IS NULL OR blocked_until <= now())'),
      // A count is read only in its own hour; two hours leave room for clocks a little apart.
      mailCounts: await count("DELETE FROM mail_counts WHERE window_start < now() - interval '2 hours'"),
      mailDigests: await count("DELETE FROM alert_mail_digests WHERE sent_at < now() - interval '30 days'"),
    };
  }
}
