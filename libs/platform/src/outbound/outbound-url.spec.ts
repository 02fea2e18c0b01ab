import { isForbiddenAddress, outboundUrlProblem, parsedOutboundUrl } from './outbound-url';

describe('outbound URLs (SSRF guard)', () => {
  it.each([
    '127.0.0.1',
    '127.1.2.3',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    'not-an-ip',
    // IPv6 forms that carry a forbidden IPv4 address
    '::127.0.0.1',
    '::7f00:1',
    '::169.254.169.254',
    '::ffff:10.0.0.1',
    '::ffff:7f00:1',
    '64:ff9b::127.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b::10.1.2.3',
    '2002:7f00:1::1',
    '2002:a9fe:a9fe::',
    '2002:c0a8:101::1',
    // local-use NAT64, Teredo, site-local and other special ranges, whatever they carry
    '64:ff9b:1::8.8.8.8',
    '64:ff9b:1:ffff::1',
    '2001::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    'fec0::1',
    'feff::1',
    '2001:db8::1',
    '100::1',
    '3fff::1',
    '192.0.2.1',
    '198.51.100.7',
    '203.0.113.9',
    '255.255.255.255',
    '198.18.0.1',
  ])('forbids %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8', '2002:808:808::1'])('allows %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });

  it.each([
    ['http://127.0.0.1:8080/api', /loopback/],
    ['http://2130706433/', /loopback/], // decimal 127.0.0.1
    ['http://0x7f000001/', /loopback/], // hex 127.0.0.1
    ['http://017700000001/', /loopback/], // octal 127.0.0.1
    ['http://[::1]:3000/', /loopback/],
    ['http://[::127.0.0.1]/', /loopback/],
    ['http://[64:ff9b::127.0.0.1]/', /loopback/],
    ['http://[::ffff:169.254.169.254]/', /loopback/],
    ['http://[2002:7f00:1::]/', /loopback/],
    ['http://[fec0::1]/', /loopback/],
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

describe('parsedOutboundUrl: the URL as it is called, or why not (issue 28)', () => {
  it.each([
    ['http://a.example\\@127.0.0.1/', /"\\"/],
    ['https://example.org\\path', /"\\"/],
    ['https://example.org/a\r\nX-Injected: 1', /control characters/],
    ['https://exa\tmple.org/', /control characters/],
    ['https://example.org/\u0000', /control characters/],
    ['https://example.org/\u007f', /control characters/],
    ['https://example.org/\u0085', /control characters/],
    ['not a url', /not a URL/],
  ])('refuses %j', (raw, problem) => {
    expect(parsedOutboundUrl(raw)).toMatch(problem);
  });

  it('gives the WHATWG-parsed href, which parses to itself', () => {
    for (const [raw, href] of [
      [' HTTPS://Example.ORG:443/a/./b/../c d?x=1#frag ', 'https://example.org/a/c%20d?x=1#frag'],
      ['http://2130706433/', 'http://127.0.0.1/'],
      ['mqtt://Broker.Example:1883', 'mqtt://Broker.Example:1883'],
    ]) {
      const url = parsedOutboundUrl(raw!);
      expect(typeof url === 'string' ? url : url.href).toBe(href);
      expect(new URL(href!).href).toBe(href);
    }
  });

  it('keeps outboundUrlProblem refusing what parsedOutboundUrl refuses, private addresses allowed or not', async () => {
    expect(await outboundUrlProblem('http://a.example\\@127.0.0.1/', true)).toMatch(/"\\"/);
    expect(await outboundUrlProblem('http://127.0.0.1/\n', true)).toMatch(/control characters/);
  });
});
