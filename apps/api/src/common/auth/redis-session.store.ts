import type { Redis } from 'ioredis';
import { type ListedSession, type SessionClient, SessionStore, type StoredSession } from './session-store';

/** Keys read per MGET when listing an account's sessions. */
const LIST_BATCH = 500;

interface SessionValue {
  a: number;
  c: number;
  l: number;
  e: number;
  /** User agent and client address at sign-in; absent on sessions written before they were kept. */
  u?: string | null;
  i?: string | null;
}

const parse = (raw: string): StoredSession => {
  const v = JSON.parse(raw) as SessionValue;
  return { accountId: v.a, createdAt: new Date(v.c), lastSeenAt: new Date(v.l), expiresAt: new Date(v.e), userAgent: v.u ?? null, clientIp: v.i ?? null };
};

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
    const value = JSON.stringify({
      a: session.accountId,
      c: session.createdAt.getTime(),
      l: session.lastSeenAt.getTime(),
      e: session.expiresAt.getTime(),
      u: session.userAgent,
      i: session.clientIp,
    } satisfies SessionValue);
    await this.redis
      .multi()
      .set(this.key(digest), value, 'PX', ttl)
      .sadd(this.accountKey(session.accountId), digest.toString('hex'))
      .pexpire(this.accountKey(session.accountId), ttl, 'GT')
      .exec();
  }

  async create(digest: Buffer, accountId: number, expiresAt: Date, client: SessionClient): Promise<StoredSession> {
    const now = new Date();
    const session = { accountId, createdAt: now, lastSeenAt: now, expiresAt, userAgent: client.userAgent, clientIp: client.clientIp };
    // The account set may not exist yet: PEXPIRE GT would not set a TTL on a key without one.
    await this.write(digest, session);
    await this.redis.pexpire(this.accountKey(accountId), Math.max(1, expiresAt.getTime() - Date.now()), 'NX');
    return session;
  }

  async get(digest: Buffer): Promise<StoredSession | null> {
    const raw = await this.redis.get(this.key(digest));
    return raw ? parse(raw) : null;
  }

  /** The account set's members whose key is still there; members of expired sessions are dropped from the set on the way. */
  async listForAccount(accountId: number): Promise<ListedSession[]> {
    const members = await this.redis.smembers(this.accountKey(accountId));
    const listed: ListedSession[] = [];
    const gone: string[] = [];
    for (let at = 0; at < members.length; at += LIST_BATCH) {
      const batch = members.slice(at, at + LIST_BATCH);
      const values = await this.redis.mget(...batch.map((hex) => `${this.prefix}:sess:${hex}`));
      batch.forEach((hex, n) => {
        const raw = values[n];
        const session = raw ? parse(raw) : null;
        if (session && session.accountId === accountId && session.expiresAt.getTime() > Date.now()) listed.push({ digest: Buffer.from(hex, 'hex'), session });
        else if (!raw) gone.push(hex);
      });
    }
    if (gone.length > 0) await this.redis.srem(this.accountKey(accountId), ...gone);
    return listed;
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

  async destroyAllForAccount(accountId: number, keep: Buffer | null): Promise<number> {
    const members = await this.redis.smembers(this.accountKey(accountId));
    const keepHex = keep?.toString('hex');
    const doomed = members.filter((m) => m !== keepHex);
    if (doomed.length === 0) return 0;
    const results = await this.redis
      .multi()
      .del(...doomed.map((hex) => `${this.prefix}:sess:${hex}`))
      .srem(this.accountKey(accountId), ...doomed)
      .exec();
    // DEL counts the keys that were there: expired sessions still in the set are not counted.
    const deleted = results?.[0]?.[1];
    return typeof deleted === 'number' ? deleted : 0;
  }
}
