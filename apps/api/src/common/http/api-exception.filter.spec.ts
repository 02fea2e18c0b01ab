import { QueryTimeoutError } from '@dts/persistence';
import { isUnavailable, toApiException } from './api-exception.filter';

/** An error as ioredis raises it: its class name and message, as seen from a real Redis Cluster with a master killed. */
const redisError = (name: string, message: string) => Object.assign(new Error(message), { name });

describe('what counts as "the store is unavailable" (503 UNAVAILABLE, Retry-After)', () => {
  it.each([
    ['MaxRetriesPerRequestError', 'Reached the max retries per request limit (which is 3). Refer to "maxRetriesPerRequest" option for details.'],
    // A key whose master was killed, asked of a three-master cluster (ioredis 6): first MOVED to the dead node, then closed connections.
    ['Error', 'Too many Cluster redirections. Last error: ReplyError: MOVED 15495 127.0.0.1:40749'],
    ['Error', 'Too many Cluster redirections. Last error: Error: Connection is closed.'],
    ['ReplyError', 'CLUSTERDOWN The cluster is down'],
    ['ReplyError', 'TRYAGAIN Multiple keys request during rehashing of slot'],
    ['ClusterAllFailedError', 'Failed to refresh slots cache.'],
    ['Error', 'None of startup nodes is available'],
    // Every node down: the service's client has no offline queue on a cluster (redis.ts).
    ['Error', "Cluster isn't ready and enableOfflineQueue options is false"],
  ])('%s: %s', (name, message) => {
    expect(isUnavailable(redisError(name, message))).toBe(true);
    expect(toApiException(redisError(name, message)).exception).toMatchObject({ status: 503, retryAfter: 5, entries: [{ code: 'UNAVAILABLE' }] });
  });

  it('leaves a refused command an internal error: CROSSSLOT is a bug, not an outage', () => {
    expect(isUnavailable(redisError('ReplyError', "CROSSSLOT Keys in request don't hash to the same slot"))).toBe(false);
    expect(toApiException(redisError('ReplyError', "CROSSSLOT Keys in request don't hash to the same slot")).exception.status).toBe(500);
  });
});

describe('toApiException', () => {
  it('answers a read past its statement timeout 503 QUERY_TIMEOUT, saying how to ask for less, as an expected outcome', () => {
    const { exception, unexpected } = toApiException(new QueryTimeoutError(5_000));
    expect(unexpected).toBe(false);
    expect(exception.status).toBe(503);
    expect(exception.entries).toEqual([{ code: 'QUERY_TIMEOUT', message: expect.stringMatching(/5000 ms.*shorter range or a coarser interval/) }]);
  });

  it('keeps a database that cannot be reached UNAVAILABLE, and anything else INTERNAL', () => {
    expect(toApiException(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })).exception.entries[0]?.code).toBe('UNAVAILABLE');
    expect(toApiException(new Error('boom'))).toMatchObject({ unexpected: true, exception: { status: 500 } });
  });
});
