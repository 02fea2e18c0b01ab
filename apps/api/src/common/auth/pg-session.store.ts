import { Injectable } from '@nestjs/common';
import { type SessionEntity, SessionsRepository } from '@dts/persistence';
import { type ListedSession, type SessionClient, SessionStore, type StoredSession } from './session-store';

const stored = (row: SessionEntity): StoredSession => ({
  accountId: row.accountId,
  createdAt: row.createdAt,
  lastSeenAt: row.lastSeenAt,
  expiresAt: row.expiresAt,
  userAgent: row.userAgent,
  clientIp: row.clientIp,
});

@Injectable()
export class PgSessionStore extends SessionStore {
  constructor(private readonly sessions: SessionsRepository) {
    super();
  }

  async create(digest: Buffer, accountId: number, expiresAt: Date, client: SessionClient): Promise<StoredSession> {
    return stored(await this.sessions.create(digest, accountId, expiresAt, client));
  }

  async get(digest: Buffer): Promise<StoredSession | null> {
    const row = await this.sessions.find(digest);
    return row && stored(row);
  }

  async listForAccount(accountId: number): Promise<ListedSession[]> {
    return (await this.sessions.listForAccount(accountId)).map((row) => ({ digest: row.digest, session: stored(row) }));
  }

  touch(digest: Buffer, _session: StoredSession, expiresAt: Date): Promise<void> {
    return this.sessions.touch(digest, expiresAt);
  }

  destroy(digest: Buffer): Promise<void> {
    return this.sessions.delete(digest);
  }

  destroyAllForAccount(accountId: number, keep: Buffer | null): Promise<number> {
    return this.sessions.deleteAllForAccount(accountId, keep);
  }
}
