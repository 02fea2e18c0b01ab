import type { DeliveryWire, IntegrationWire } from '@dts/domain';
import { i18n } from '../i18n';
import { integrationHealth } from './integration-health';

const base: IntegrationWire = {
  uid: 1,
  name: 'Hook',
  kind: 'webhook',
  url: 'https://example.org/hook',
  events: ['uplink'],
  devices: null,
  enabled: true,
  disabled_reason: null,
  disabled_unix: null,
  failing_since_unix: null,
  last_error: null,
  last_success_unix: null,
  pending: 0,
  topic: null,
  qos: null,
  username: null,
  has_password: false,
  created_unix: 1_700_000_000,
  updated_unix: 1_700_000_000,
};

describe('integrationHealth', () => {
  it('tells an integration never used, a healthy one and one switched off', () => {
    expect(integrationHealth(base)).toEqual({ tone: 'info', state: 'unused', label: 'Nothing sent yet', detail: null });
    expect(integrationHealth({ ...base, last_success_unix: 1_700_000_060 })).toMatchObject({ tone: 'ok', detail: 'Last delivered 2023-11-14 22:14:20 UTC.' });
    expect(integrationHealth({ ...base, enabled: false, last_success_unix: 1 })).toMatchObject({ tone: 'off', label: 'Switched off' });
  });

  it('tells a failing one with its last error and, from the newest delivery, its next attempt', () => {
    const failing = { ...base, last_success_unix: 1_699_999_000, failing_since_unix: 1_700_000_000, last_error: 'HTTP 503' };
    expect(integrationHealth(failing)).toEqual({
      tone: 'bad',
      state: 'failing',
      label: 'Failing',
      detail: 'Every attempt since 2023-11-14 22:13:20 UTC has failed: HTTP 503.',
    });
    const newest = { state: 'pending', next_attempt_unix: 1_700_000_120 } as DeliveryWire;
    expect(integrationHealth(failing, newest).detail).toBe(
      'Every attempt since 2023-11-14 22:13:20 UTC has failed: HTTP 503. Next attempt 2023-11-14 22:15:20 UTC.',
    );
  });

  it('puts the service disabling it first, with its reason', () => {
    const gone = {
      ...base,
      enabled: false,
      disabled_reason: 'the receiver answered 410 Gone',
      disabled_unix: 1_700_000_000,
      failing_since_unix: 1_699_000_000,
    };
    expect(integrationHealth(gone)).toMatchObject({
      tone: 'bad',
      label: 'Disabled by the service',
      detail: expect.stringMatching(/^the receiver answered 410 Gone \(2023-11-14 22:13:20 UTC\)/),
    });
  });

  it('speaks German, keeping the service’s own texts and the state the page marks', async () => {
    await i18n.changeLanguage('de');
    try {
      const failing = { ...base, failing_since_unix: 1_700_000_000, last_error: 'HTTP 503' };
      expect(integrationHealth(failing)).toEqual({
        tone: 'bad',
        state: 'failing',
        label: 'Fehlerhaft',
        detail: 'Jeder Versuch seit 2023-11-14 22:13:20 UTC ist fehlgeschlagen: HTTP 503.',
      });
      expect(integrationHealth(base).label).toBe('Noch nichts gesendet');
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
