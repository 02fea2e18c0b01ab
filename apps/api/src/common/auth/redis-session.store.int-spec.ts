import { describeOnEachRedis, isCluster } from '@dts/platform';
import { createHash, randomBytes } from 'node:crypto';
import { RedisSessionStore } from './redis-session.store';

/*
 * The Redis session store on a three-master Redis Cluster started here and on the single Redis of
 * TEST_REDIS_URL: the same behaviour on both. On a cluster the session keys land on every master and
 * no command spans two slots (a MULTI over a session and its account's set was refused with
 * CROSSSLOT before). In the PostgreSQL + Redis pass of `npm test`.
 */

const digestOf = () => createHash('sha256').update(randomBytes(32)).digest();
const client = { userAgent: 'jest', clientIp: '127.0.0.1' };
const inAnHour = () => new Date(Date.now() + 3_600_000);

describeOnEachRedis('the Redis session store on a single Redis and on a Redis Cluster', ({ redis, cluster }) => {
  describe.each(['single', 'cluster'] as const)('on a %s Redis', (kind) => {
    const prefix = `dts-sess-${kind}-${randomBytes(3).toString('hex')}`;
    const store = () => new RedisSessionStore(redis[kind], prefix);
    let accountId = Math.floor(Math.random() * 1e9);

    beforeEach(() => (accountId += 1));

    it('creates, reads, touches and lists sessions, each with its expiry', async () => {
      const s = store();
      const digests = Array.from({ length: 30 }, digestOf);
      for (const d of digests) await s.create(d, accountId, inAnHour(), client);
      const one = await s.get(digests[0]!);
      expect(one).toMatchObject({ accountId, userAgent: 'jest', clientIp: '127.0.0.1' });

      const later = new Date(Date.now() + 7_200_000);
      await s.touch(digests[0]!, one!, later);
      expect((await s.get(digests[0]!))?.expiresAt.getTime()).toBe(later.getTime());
      const ttl = await redis[kind].pttl(`${prefix}:sess:${digests[0]!.toString('hex')}`);
      expect(ttl).toBeGreaterThan(3_600_000);
      // The account's set lives as long as its longest session.
      expect(await redis[kind].pttl(`${prefix}:sess-account:${accountId}`)).toBeGreaterThan(3_600_000);

      const listed = await s.listForAccount(accountId);
      expect(listed.map((l) => l.digest.toString('hex')).sort()).toEqual(digests.map((d) => d.toString('hex')).sort());
      if (isCluster(redis[kind])) {
        // What a cluster is for: the sessions of one account are spread over the masters.
        const ports = new Set<number>();
        for (const n of cluster().nodes) {
          const node = cluster().node(n.port);
          const held = await Promise.all(digests.map((d) => node.exists(`${prefix}:sess:${d.toString('hex')}`).catch(() => 0)));
          if (held.some(Boolean)) ports.add(n.port);
          node.disconnect();
        }
        expect(ports.size).toBe(3);
      }
    });

    it('ends one session, and all but the one kept, counting only live ones', async () => {
      const s = store();
      const [a, b, c, d] = [digestOf(), digestOf(), digestOf(), digestOf()];
      for (const x of [a, b, c, d]) await s.create(x, accountId, inAnHour(), client);
      await s.destroy(a);
      expect(await s.get(a)).toBeNull();
      expect(await redis[kind].sismember(`${prefix}:sess-account:${accountId}`, a.toString('hex'))).toBe(0);

      // A member whose session is gone (expired, or never written) is not counted and is dropped.
      await redis[kind].del(`${prefix}:sess:${c.toString('hex')}`);
      expect(await s.destroyAllForAccount(accountId, d)).toBe(1);
      expect(await s.get(b)).toBeNull();
      expect(await s.get(d)).not.toBeNull();
      expect(await redis[kind].smembers(`${prefix}:sess-account:${accountId}`)).toEqual([d.toString('hex')]);
    });

    it('never brings back with a touch a session ended meanwhile (a request in flight during logout)', async () => {
      const s = store();
      const d = digestOf();
      const session = await s.create(d, accountId, inAnHour(), client);
      await s.destroy(d);
      await s.touch(d, session, new Date(Date.now() + 7_200_000));
      expect(await s.get(d)).toBeNull();
      expect(await s.listForAccount(accountId)).toEqual([]);
    });

    it('drops from the listing (and the set) a listed digest whose session never got written', async () => {
      const s = store();
      const live = digestOf();
      await s.create(live, accountId, inAnHour(), client);
      const orphan = randomBytes(32).toString('hex');
      await redis[kind].sadd(`${prefix}:sess-account:${accountId}`, orphan);
      expect((await s.listForAccount(accountId)).map((l) => l.digest.toString('hex'))).toEqual([live.toString('hex')]);
      expect(await redis[kind].sismember(`${prefix}:sess-account:${accountId}`, orphan)).toBe(0);
    });

    it('keeps the key names a single Redis has always had (sessions survive an upgrade)', async () => {
      const s = store();
      const d = digestOf();
      await s.create(d, accountId, inAnHour(), client);
      expect(await redis[kind].exists(`${prefix}:sess:${d.toString('hex')}`)).toBe(1);
      expect(await redis[kind].sismember(`${prefix}:sess-account:${accountId}`, d.toString('hex'))).toBe(1);
    });
  });
});
