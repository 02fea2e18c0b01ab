import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { SessionEntity } from '../entities';

/** Server-side sessions in PostgreSQL: what every api instance sees when no Redis is configured. */
@Injectable()
export class SessionsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async create(digest: Buffer, accountId: number, expiresAt: Date): Promise<SessionEntity> {
    const repo = this.ds.getRepository(SessionEntity);
    return repo.save(repo.create({ digest, accountId, expiresAt, createdAt: new Date(), lastSeenAt: new Date() }));
  }

  /** The live session with this digest, or null when unknown or expired. */
  find(digest: Buffer): Promise<SessionEntity | null> {
    return this.ds.getRepository(SessionEntity).createQueryBuilder('s').where('s.digest = :digest AND s.expires_at > now()', { digest }).getOne();
  }

  /** Rolling expiry: moves the session's end forward from now. */
  async touch(digest: Buffer, expiresAt: Date): Promise<void> {
    await this.ds.query('UPDATE sessions SET last_seen_at = now(), expires_at = $2 WHERE digest = $1', [digest, expiresAt]);
  }

  async delete(digest: Buffer): Promise<void> {
    await this.ds.query('DELETE FROM sessions WHERE digest = $1', [digest]);
  }

  /** Ends every session of the account but `keep` (the caller's own, when it stays signed in). */
  async deleteAllForAccount(accountId: number, keep: Buffer | null, manager?: EntityManager): Promise<void> {
    await (manager ?? this.ds.manager).query('DELETE FROM sessions WHERE account_id = $1 AND ($2::bytea IS NULL OR digest <> $2)', [accountId, keep]);
  }
}
