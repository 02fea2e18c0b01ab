import { expectSuccess } from './support/envelope';
import { startTestService, type TestService } from './support/harness';

describe('administrator bootstrap (ADMIN_USERNAME / ADMIN_PASSWORD)', () => {
  let svc: TestService;
  let second: TestService;
  afterAll(async () => {
    await second?.close();
    await svc?.close();
  });

  it('creates the administrator once, and a restart leaves it (and its password) alone', async () => {
    const env = { ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'root password 123' };
    svc = await startTestService({ env });
    const login = await svc.http().post('/auth/login').send({ username: 'root', password: 'root password 123' }).expect(200);
    const cookie = (login.headers['set-cookie'] as unknown as string[])[0]!.split(';')[0]!;
    const me = expectSuccess<{ groupid: number; username: string; email: string }>(await svc.http().get('/user').set('Cookie', cookie));
    expect(me).toMatchObject({ groupid: 1, username: 'root', email: 'root@localhost' });

    await svc
      .http()
      .post('/auth/pwdchange')
      .set('Cookie', cookie)
      .send({ current_password: 'root password 123', new_password: 'a better password' })
      .expect(200);
    second = await startTestService({ sameDatabaseAs: svc, env });
    const check = expectSuccess<{ valid: boolean }>(await second.http().post('/auth/check').send({ username: 'root', password: 'a better password' }));
    expect(check.valid).toBe(true);
  });
});
