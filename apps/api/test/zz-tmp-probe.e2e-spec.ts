import { accountWithCredentials, bearer } from './support/accounts';
import { startTestService, type TestService } from './support/harness';
describe('probe', () => {
  let svc: TestService;
  beforeAll(async () => { svc = await startTestService(); });
  afterAll(() => svc?.close());
  it('probe', async () => {
    const a = await accountWithCredentials(svc, 'p');
    for (const p of ['/datamodel/network/1e3', '/datamodel/network/0x10', '/datamodel/decoder/1e3', '/datamodel/network/1000', '/datamodel/network/16', '/user/fence/1e3', '/datamodel/network/%31']) {
      const r = await svc.http().get(p).set(...bearer(a.appToken));
      console.log(p, r.status, JSON.stringify(r.body.errors));
    }
  });
});
