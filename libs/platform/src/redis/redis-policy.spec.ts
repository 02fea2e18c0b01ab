import { checkEvictionPolicy, evictionVerdict, policyFromInfo, readEvictionPolicy, RedisPolicyError } from './redis-policy';

const INFO = (policy: string) =>
  `# Memory\r\nused_memory:1000\r\nmaxmemory:0\r\nmaxmemory_human:0B\r\nmaxmemory_policy:${policy}\r\nallocator_frag_ratio:1.00\r\n`;

/** A reply error as ioredis raises it for a refused command. */
const replyError = (message: string) => Object.assign(new Error(message), { name: 'ReplyError' });

/** A stand-in client: each command answers the given value or throws the given error. */
function client(info: string | Error, config: string[] | Error) {
  const calls: string[] = [];
  return {
    calls,
    info: async (section: string) => {
      calls.push(`INFO ${section}`);
      if (info instanceof Error) throw info;
      return info;
    },
    config: async (...args: string[]) => {
      calls.push(`CONFIG ${args.join(' ')}`);
      if (config instanceof Error) throw config;
      return config;
    },
  } as never as Parameters<typeof readEvictionPolicy>[0] & { calls: string[] };
}

describe('the Redis eviction policy check', () => {
  it('reads maxmemory_policy from INFO memory, CRLF lines and all', () => {
    expect(policyFromInfo(INFO('noeviction'))).toBe('noeviction');
    expect(policyFromInfo(INFO('allkeys-lru'))).toBe('allkeys-lru');
    expect(policyFromInfo('# Memory\r\nused_memory:1\r\n')).toBeNull();
  });

  it('starts on noeviction, read with INFO alone (CONFIG is often disabled on managed Redis)', async () => {
    const redis = client(INFO('noeviction'), replyError('ERR unknown command'));
    await expect(checkEvictionPolicy(redis)).resolves.toBeNull();
    expect(redis.calls).toEqual(['INFO memory']);
  });

  it.each(['allkeys-lru', 'volatile-lru', 'allkeys-lfu', 'volatile-lfu', 'allkeys-random', 'volatile-random', 'volatile-ttl'])(
    'refuses %s with one line naming the setting and the fix',
    async (policy) => {
      const refusal = await checkEvictionPolicy(client(INFO(policy), ['maxmemory-policy', policy])).catch((e: unknown) => e);
      expect(refusal).toBeInstanceOf(RedisPolicyError);
      const message = (refusal as Error).message;
      expect(message).not.toContain('\n');
      expect(message).toContain(`Redis maxmemory-policy is ${policy}`);
      expect(message).toContain('must be noeviction');
      expect(message).toContain('--maxmemory-policy noeviction');
    },
  );

  it('falls back to CONFIG GET when INFO is refused, and refuses what it reads there', async () => {
    const redis = client(replyError("NOPERM this user has no permissions to run the 'info' command"), ['maxmemory-policy', 'volatile-ttl']);
    expect(await readEvictionPolicy(redis)).toEqual({ policy: 'volatile-ttl', source: 'CONFIG GET' });
    await expect(checkEvictionPolicy(redis)).rejects.toThrow('Redis maxmemory-policy is volatile-ttl (from CONFIG GET)');
  });

  it('starts with a warning when neither INFO nor CONFIG tells the policy', async () => {
    const redis = client(replyError('ERR unknown command `INFO`'), replyError('ERR unknown command `CONFIG`'));
    const warning = await checkEvictionPolicy(redis);
    expect(warning).toMatch(
      /^could not read the Redis maxmemory-policy \(INFO: ERR unknown command `INFO`; CONFIG: ERR unknown command `CONFIG`\): make sure it is noeviction/,
    );
    expect(evictionVerdict({ policy: null, why: 'x' })).toMatchObject({ start: true });
  });

  it('lets a lost connection fail start-up rather than pass as "unreadable"', async () => {
    const lost = Object.assign(new Error('Reached the max retries per request limit (which is 3).'), { name: 'MaxRetriesPerRequestError' });
    await expect(checkEvictionPolicy(client(lost, ['maxmemory-policy', 'noeviction']))).rejects.toBe(lost);
  });
});
