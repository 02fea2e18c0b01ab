import { loadConfig } from '@dts/platform';
import { MqttTransport } from './mqtt-transport';

const config = (env: Record<string, string> = {}) =>
  loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: 'postgres://x/y',
    INGEST_SECRET: 'x'.repeat(16),
    TOKEN_ENCRYPTION_KEY: '0'.repeat(64),
    SESSION_SECRET: 's'.repeat(32),
    OUTBOUND_ALLOW_PRIVATE: 'true',
    INTEGRATION_TIMEOUT_MS: '500',
    ...env,
  });

/*
 * A broker URL stored before the port rule (or written to the table by hand) is judged again at
 * each connection: no connection is made, and the delivery fails saying why.
 */
describe('MqttTransport and the broker port rule', () => {
  it('fails a delivery to a broker on a refused port without opening a connection, naming the rule', async () => {
    const transport = new MqttTransport(config());
    try {
      const settings = { integration: 1, url: 'mqtt://127.0.0.1:22', username: 'u', password: 'p', version: '1' };
      expect(await transport.publish(settings, 't', '{}', 1)).toMatchObject({ ok: false, error: expect.stringMatching(/^the broker URL port 22 is SSH's/) });
      expect(await transport.publish({ ...settings, url: 'mqtt://127.0.0.1:0' }, 't', '{}', 1)).toMatchObject({
        ok: false,
        error: 'the broker URL port must be from 1 to 65535',
      });
      expect(transport.size).toBe(0);
    } finally {
      transport.onApplicationShutdown();
    }
  });
});
