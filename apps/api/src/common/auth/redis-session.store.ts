import type { Redis } from 'ioredis';
import { SessionStore, type StoredSession } from './session-store';

/**
 * Sessions in Redis: one key per session with the session's own expiry, and one set per account
 * listing its sessions so that a password change can end them all.
 */
export class RedisSessionStore extends SessionStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {
    super();
  }

  private key(digest: Buffer) {
    return `${this.prefix}:sess:${digest.toString('hex')}`;
  }

  private accountKey(accountId: number) {
    return `${this.prefix}:sess-account:${accountId}`;
  }

  private async write(digest: Buffer, session: StoredSession): Promise<void> {
    const ttl = Math.max(1, session.expiresAt.getTime() - Date.now());
    const value = JSON.stringify({ a: session.accountId, c: session.createdAt.getTime(), l: session.lastSeenAt.getTime(), e: session.expiresAt.getTime() });
    await this.redis
      .multi()
      .set(this.key(digest), value, 'PX', ttl)
      .sadd(this.accountKey(session.accountId), digest.toString('hex'))
      .pexpire(this.accountKey(session.accountId), ttl, 'GT')
      .exec();
  }

  async create(digest: Buffer, accountId: number, expiresAt: Date): Promise<StoredSession> {
    const now = new Date();
    const session = { accountId, createdAt: now, lastSeenAt: now, expiresAt };
    // The account set may not exist yet: PEXPIRE GT would not set a TTL on a key without one.
    await this.write(digest, session);
    await this.redis.pexpire(this.accountKey(accountId), Math.max(1, expiresAt.getTime() - Date.now()), 'NX');
    return session;
  }

  async get(digest: Buffer): Promise<StoredSession | null> {
    const raw = await this.redis.get(this.key(digest));
    if (!raw) return null;
    const v = JSON.parse(raw) as { a: number; c: number; l: number; e: number };
    return { accountId: v.a, createdAt: new Date(v.c), lastSeenAt: new Date(v.l), expiresAt: new Date(v.e) };
  }

  touch(digest: Buffer, session: StoredSession, expiresAt: Date): Promise<void> {
    return this.write(digest, { ...session, lastSeenAt: new Date(), expiresAt });
  }

  async destroy(digest: Buffer): Promise<void> {
    const session = await this.get(digest);
    const tx = this.redis.multi().del(this.key(digest));
    if (session) tx.srem(this.accountKey(session.accountId), digest.toString('hex'));
    await tx.exec();
  }

  async destroyAllForAccount(accountId: number, keep: Buffer | null): Promise<void> {
    const members = await this.redis.smembers(this.accountKey(accountId));
    const keepHex = keep?.toString('hex');
    const doomed = members.filter((m) => m !== keepHex);
    if (doomed.length === 0) return;
    await this.redis
      .multi()
      .del(...doomed.map((hex) => `${this.prefix}:sess:${hex}`))
      .srem(this.accountKey(accountId), ...doomed)
      .exec();
  }
}
