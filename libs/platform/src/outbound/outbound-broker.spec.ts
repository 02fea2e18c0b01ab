import { brokerUrlProblem, parseBrokerUrl, REFUSED_BROKER_PORTS } from './outbound-broker';

describe('parseBrokerUrl', () => {
  it('takes mqtt(s)://host[:port] with the default ports, and gives the parsed URL to store', () => {
    expect(parseBrokerUrl('mqtt://broker.example.org')).toEqual({ tls: false, host: 'broker.example.org', port: 1883, href: 'mqtt://broker.example.org' });
    expect(parseBrokerUrl(' mqtts://[2001:db8::1] ')).toEqual({ tls: true, host: '2001:db8::1', port: 8883, href: 'mqtts://[2001:db8::1]' });
    expect(parseBrokerUrl('mqtt://broker.example.org:443')).toMatchObject({ port: 443 });
    expect(parseBrokerUrl('mqtts://broker.example.org:65535')).toMatchObject({ port: 65535 });
  });

  it.each([
    ['mqtt://broker.example.org:0', /1 to 65535/],
    ['mqtt://broker.example.org:65536', /1 to 65535/],
    ['mqtts://[::1]:70000', /1 to 65535/],
    ['mqtt://broker.example.org:22', /22 is SSH's/],
    ['mqtt://broker.example.org:25', /SMTP/],
    ['mqtt://broker.example.org:53', /DNS/],
    ['mqtts://broker.example.org:5432', /PostgreSQL/],
    ['mqtt://broker.example.org:6379', /Redis/],
    ['mqtt://a.example\\@127.0.0.1', /"\\"/],
    ['mqtt://broker.example.org\r\n', /control characters/],
    ['mqtt://user:pw@broker.example.org', /credentials/],
    ['mqtt://broker.example.org/topic', /scheme:\/\/host\[:port\] only/],
    ['https://broker.example.org', /mqtt or mqtts/],
  ])('refuses %j', (raw, problem) => {
    expect(parseBrokerUrl(raw)).toMatch(problem);
  });

  it('takes a refused port that the configuration allows, and only that one', () => {
    expect(parseBrokerUrl('mqtt://broker.example.org:5432', [5432])).toMatchObject({ port: 5432 });
    expect(parseBrokerUrl('mqtt://broker.example.org:6379', [5432])).toMatch(/Redis/);
    expect(parseBrokerUrl('mqtt://broker.example.org:0', [0])).toMatch(/1 to 65535/);
  });

  it('never refuses MQTT’s own ports or the web ports brokers listen on', () => {
    for (const port of [1883, 8883, 80, 443, 8080, 8443, 8083, 8084]) expect(REFUSED_BROKER_PORTS.has(port)).toBe(false);
  });

  it('brokerUrlProblem refuses the port before any look-up, and passes the allowed one on to the address check', async () => {
    expect(await brokerUrlProblem('mqtt://8.8.8.8:5432', false)).toMatch(/PostgreSQL/);
    expect(await brokerUrlProblem('mqtt://8.8.8.8:5432', false, [5432])).toBeNull();
    expect(await brokerUrlProblem('mqtt://127.0.0.1:5432', false, [5432])).toMatch(/loopback/);
  });
});
