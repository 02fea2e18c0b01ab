import { QueryTimeoutError } from '@dts/persistence';
import { toApiException } from './api-exception.filter';

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
