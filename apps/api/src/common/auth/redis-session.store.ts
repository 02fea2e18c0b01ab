import { deleteMany, getMany, type RedisClient } from '@dts/platform';
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
 *
 * On a Redis Cluster the session keys (named by random digests) spread over every master, and an
 * account's set lives in a slot of its own: no command or MULTI here spans two keys. What a
 * transaction over both gave is kept by order instead: the account's set names a session before
 * the session is written, and a session is deleted before it leaves the set, so a session that
 * exists is always listed (a password change finds it); a listed digest without its session is
 * harmless, and dropped by the next listing. A touch only rewrites a session still there, so that a
 * request in flight cannot bring back, unlisted, a session that logout ended between its two steps.
 * The key names are those a single Redis has always had.
 */
export class RedisSessionStore extends SessionStore {
  constructor(
    private readonly redis: RedisClient,
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

  /** `existing`: a touch, which must not bring back a session ended meanwhile (logout, password change). */
  private async write(digest: Buffer, session: StoredSession, existing: boolean): Promise<void> {
    const ttl = Math.max(1, session.expiresAt.getTime() - Date.now());
    const value = JSON.stringify({
      a: session.accountId,
      c: session.createdAt.getTime(),
      l: session.lastSeenAt.getTime(),
      e: session.expiresAt.getTime(),
      u: session.userAgent,
      i: session.clientIp,
    } satisfies SessionValue);
    const accountKey = this.accountKey(session.accountId);
    // One key, one slot: a MULTI a cluster accepts. NX gives a new set its first TTL (GT never
    // applies to a key without one), GT keeps the set as long as its longest session.
    await this.redis.multi().sadd(accountKey, digest.toString('hex')).pexpire(accountKey, ttl, 'NX').pexpire(accountKey, ttl, 'GT').exec();
    if (existing) await this.redis.set(this.key(digest), value, 'PX', ttl, 'XX');
    else await this.redis.set(this.key(digest), value, 'PX', ttl);
  }

  async create(digest: Buffer, accountId: number, expiresAt: Date, client: SessionClient): Promise<StoredSession> {
    const now = new Date();
    const session = { accountId, createdAt: now, lastSeenAt: now, expiresAt, userAgent: client.userAgent, clientIp: client.clientIp };
    await this.write(digest, session, false);
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
      const values = await getMany(
        this.redis,
        batch.map((hex) => `${this.prefix}:sess:${hex}`),
      );
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
    return this.write(digest, { ...session, lastSeenAt: new Date(), expiresAt }, true);
  }

  async destroy(digest: Buffer): Promise<void> {
    const session = await this.get(digest);
    await this.redis.del(this.key(digest));
    if (session) await this.redis.srem(this.accountKey(session.accountId), digest.toString('hex'));
  }

  async destroyAllForAccount(accountId: number, keep: Buffer | null): Promise<number> {
    const members = await this.redis.smembers(this.accountKey(accountId));
    const keepHex = keep?.toString('hex');
    const doomed = members.filter((m) => m !== keepHex);
    if (doomed.length === 0) return 0;
    // DEL counts the keys that were there: expired sessions still in the set are not counted.
    const deleted = await deleteMany(
      this.redis,
      doomed.map((hex) => `${this.prefix}:sess:${hex}`),
    );
    await this.redis.srem(this.accountKey(accountId), ...doomed);
    return deleted;
  }
}
