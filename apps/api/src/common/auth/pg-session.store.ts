import { Injectable } from '@nestjs/common';
import { SessionsRepository } from '@dts/persistence';
import { SessionStore, type StoredSession } from './session-store';

@Injectable()
export class PgSessionStore extends SessionStore {
  constructor(private readonly sessions: SessionsRepository) {
    super();
  }

  async create(digest: Buffer, accountId: number, expiresAt: Date): Promise<StoredSession> {
    const row = await this.sessions.create(digest, accountId, expiresAt);
    return { accountId, createdAt: row.createdAt, lastSeenAt: row.lastSeenAt, expiresAt };
  }

  async get(digest: Buffer): Promise<StoredSession | null> {
    const row = await this.sessions.find(digest);
    return row && { accountId: row.accountId, createdAt: row.createdAt, lastSeenAt: row.lastSeenAt, expiresAt: row.expiresAt };
  }

  touch(digest: Buffer, _session: StoredSession, expiresAt: Date): Promise<void> {
    return this.sessions.touch(digest, expiresAt);
  }

  destroy(digest: Buffer): Promise<void> {
    return this.sessions.delete(digest);
  }

  destroyAllForAccount(accountId: number, keep: Buffer | null): Promise<void> {
    return this.sessions.deleteAllForAccount(accountId, keep);
  }
}
