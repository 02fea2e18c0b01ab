import { isForbiddenAddress, outboundUrlProblem } from './outbound-url';

describe('outbound URLs (SSRF guard)', () => {
  it.each(['127.0.0.1', '127.1.2.3', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', 'not-an-ip'])(
    'forbids %s',
    (address) => {
      expect(isForbiddenAddress(address)).toBe(true);
    },
  );

  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111'])('allows %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });

  it.each([
    ['http://127.0.0.1:8080/api', /loopback/],
    ['http://2130706433/', /loopback/], // decimal 127.0.0.1
    ['http://0x7f000001/', /loopback/], // hex 127.0.0.1
    ['http://017700000001/', /loopback/], // octal 127.0.0.1
    ['http://[::1]:3000/', /loopback/],
    ['http://169.254.169.254/latest/meta-data', /loopback/],
    ['http://localhost:3000/', /loopback|resolve/],
    ['ftp://8.8.8.8/', /http/],
    ['file:///etc/passwd', /http/],
    ['gopher://8.8.8.8/', /http/],
    ['http://user:pw@8.8.8.8/', /credentials/],
    ['not a url', /not a URL/],
  ])('refuses %s', async (url, problem) => {
    expect(await outboundUrlProblem(url, false)).toMatch(problem);
  });

  it('allows a public address, and private ones only when configured', async () => {
    expect(await outboundUrlProblem('https://8.8.8.8/api', false)).toBeNull();
    expect(await outboundUrlProblem('http://127.0.0.1:8080/', true)).toBeNull();
    expect(await outboundUrlProblem('file:///etc/passwd', true)).toMatch(/http/);
  });
});
