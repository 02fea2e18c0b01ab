import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { SessionEntity } from './session.entity';
import { returningRows } from '../sql/sql-results';

/** Where a session was started from, as the api saw the sign-in request. */
export interface SessionClient {
  userAgent: string | null;
  clientIp: string | null;
}

/** Server-side sessions in PostgreSQL: what every api instance sees when no Redis is configured. */
@Injectable()
export class SessionsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async create(digest: Buffer, accountId: number, expiresAt: Date, client: SessionClient): Promise<SessionEntity> {
    const repo = this.ds.getRepository(SessionEntity);
    return repo.save(repo.create({ digest, accountId, expiresAt, createdAt: new Date(), lastSeenAt: new Date(), ...client }));
  }

  /** The live session with this digest, or null when unknown or expired. */
  find(digest: Buffer): Promise<SessionEntity | null> {
    return this.ds.getRepository(SessionEntity).createQueryBuilder('s').where('s.digest = :digest AND s.expires_at > now()', { digest }).getOne();
  }

  /** The account's live sessions, most recently used first (an index on account_id finds them). */
  listForAccount(accountId: number): Promise<SessionEntity[]> {
    return this.ds
      .getRepository(SessionEntity)
      .createQueryBuilder('s')
      .where('s.account_id = :accountId AND s.expires_at > now()', { accountId })
      .orderBy('s.last_seen_at', 'DESC')
      .addOrderBy('s.created_at', 'DESC')
      .getMany();
  }

  /** Rolling expiry: moves the session's end forward from now. */
  async touch(digest: Buffer, expiresAt: Date): Promise<void> {
    await this.ds.query('UPDATE sessions SET last_seen_at = now(), expires_at = $2 WHERE digest = $1', [digest, expiresAt]);
  }

  async delete(digest: Buffer): Promise<void> {
    await this.ds.query('DELETE FROM sessions WHERE digest = $1', [digest]);
  }

  /**
   * Ends every session of the account but `keep` (the caller's own, when it stays signed in);
   * answers how many live sessions ended.
   */
  async deleteAllForAccount(accountId: number, keep: Buffer | null, manager?: EntityManager): Promise<number> {
    const rows = await returningRows<{ live: boolean }>(
      manager ?? this.ds.manager,
      'DELETE FROM sessions WHERE account_id = $1 AND ($2::bytea IS NULL OR digest <> $2) RETURNING expires_at > now() AS live',
      [accountId, keep],
    );
    return rows.filter((r) => r.live).length;
  }
}
