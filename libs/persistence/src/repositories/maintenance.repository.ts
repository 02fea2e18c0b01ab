import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { queryOne } from './sql-results';

export interface PurgeCounts {
  sessions: number;
  passwordResets: number;
  rateLimits: number;
}

@Injectable()
export class MaintenanceRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async ping(): Promise<void> {
    await this.ds.query('SELECT 1');
  }

  /** Removes what can no longer be used: expired sessions, spent reset tokens, ended rate windows. */
  async purgeExpired(): Promise<PurgeCounts> {
    const count = async (sql: string) => (await queryOne<{ n: number }>(this.ds, `WITH d AS (${sql} RETURNING 1) SELECT count(*)::int AS n FROM d`)).n;
    return {
      sessions: await count('DELETE FROM sessions WHERE expires_at <= now()'),
      passwordResets: await count("DELETE FROM password_resets WHERE expires_at <= now() - interval '1 day' OR used_at IS NOT NULL"),
      rateLimits: await count('DELETE FROM rate_limits WHERE expires_at <= now() AND (blocked_until IS NULL OR blocked_until <= now())'),
    };
  }
}
