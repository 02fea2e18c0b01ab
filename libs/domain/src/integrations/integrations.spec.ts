import { Webhook } from 'standardwebhooks';
import { deviceMatches, normalizeDeviceFilter } from '../devices/device-filter';
import { eventBody } from './event-body';
import { retryDelayMs, retryWindowOver, RETRY_CAP_MS } from './retry-schedule';
import { renderTopic, topicTemplateProblem } from './topic-template';
import { generateWebhookSecret, signWebhook, verifyWebhook, webhookSecretKey } from './webhook-signature';

describe('Standard Webhooks signatures', () => {
  // The published test vector of the Standard Webhooks specification and its reference libraries.
  const VECTOR = {
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
    timestamp: 1614265330,
    body: '{"test": 2432232314}',
    signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
  };

  it('reproduces the specification’s test vector', async () => {
    expect(await signWebhook(VECTOR.secret, VECTOR.id, VECTOR.timestamp, VECTOR.body)).toBe(VECTOR.signature);
    // The prefix is optional, as in the reference libraries.
    expect(await signWebhook(VECTOR.secret.slice(6), VECTOR.id, VECTOR.timestamp, VECTOR.body)).toBe(VECTOR.signature);
  });

  it('signs what the standard’s own TypeScript library verifies, with a generated secret', async () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(webhookSecretKey(secret)).toHaveLength(32);
    const now = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({ type: 'uplink', data: { é: 'ü', n: 1 } });
    const signature = await signWebhook(secret, 'evt_42', now, body);
    const headers = { 'webhook-id': 'evt_42', 'webhook-timestamp': String(now), 'webhook-signature': signature };
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow(/signature/);
    expect(await verifyWebhook(secret, 'evt_42', now, body, `v1,bm9wZQ== ${signature}`)).toBe(true);
    expect(await verifyWebhook(secret, 'evt_43', now, body, signature)).toBe(false);
  });

  it('refuses secrets that are not Base64', async () => {
    expect(webhookSecretKey('whsec_not base64!')).toBeNull();
    expect(webhookSecretKey('whsec_')).toBeNull();
    await expect(signWebhook('whsec_%%%', 'a', 1, '')).rejects.toThrow(/whsec_/);
  });
});

describe('MQTT topic templates', () => {
  it('renders the placeholders', () => {
    expect(renderTopic('dts/{devEUI}/{event}', { devEUI: '70B3D57ED0000A01', event: 'uplink', account: '7' })).toBe('dts/70B3D57ED0000A01/uplink');
    expect(renderTopic('a/{account}/{devEUI}/{devEUI}', { devEUI: 'X', event: 'e', account: '7' })).toBe('a/7/X/X');
    expect(topicTemplateProblem('dts/{devEUI}/{event}')).toBeNull();
    expect(topicTemplateProblem('plain/topic')).toBeNull();
  });

  it.each([
    ['', /empty/],
    ['dts/+/{event}', /wildcard/],
    ['dts/#', /wildcard/],
    ['$SYS/x', /reserved/],
    ['dts/{eui}/x', /unknown placeholder \{eui\}/],
    ['dts/{devEUI/x', /unbalanced/],
    ['dts/}x', /unbalanced/],
    ['dts/\u0000', /control/],
    ['x'.repeat(201), /at most 200/],
  ])('refuses %j', (template, problem) => {
    expect(topicTemplateProblem(template)).toMatch(problem);
  });
});

describe('device filters', () => {
  const device = { eui: '70B3D57ED0000A01', folder: 'park', tags: ['bike', 'blue'] };
  it('matches every criterion given, any of several EUIs or tags', () => {
    expect(deviceMatches(null, device)).toBe(true);
    expect(deviceMatches({ euis: ['X', device.eui], folder: null, tags: null }, device)).toBe(true);
    expect(deviceMatches({ euis: ['X'], folder: null, tags: null }, device)).toBe(false);
    expect(deviceMatches({ euis: null, folder: 'park', tags: ['red', 'blue'] }, device)).toBe(true);
    expect(deviceMatches({ euis: null, folder: 'barn', tags: null }, device)).toBe(false);
    expect(deviceMatches({ euis: null, folder: null, tags: ['red'] }, device)).toBe(false);
    expect(deviceMatches({ euis: null, folder: null, tags: ['bike'] }, { ...device, tags: { bike: true } })).toBe(true);
    expect(deviceMatches({ euis: null, folder: null, tags: ['toString'] }, { ...device, tags: {} })).toBe(false);
    expect(deviceMatches({ euis: null, folder: null, tags: ['bike'] }, { ...device, tags: null })).toBe(false);
  });

  it('stores a filter that restricts nothing as null, without repeats', () => {
    expect(normalizeDeviceFilter({ euis: [], tags: [] })).toBeNull();
    expect(normalizeDeviceFilter(undefined)).toBeNull();
    expect(normalizeDeviceFilter({ euis: ['A', 'A'], folder: 'f' })).toEqual({ euis: ['A'], folder: 'f', tags: null });
  });
});

describe('retry schedule', () => {
  it('doubles from a second to an hour, with 50–100 % jitter', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, 0.999999))).toEqual([1000, 2000, 4000, 8000]);
    expect(retryDelayMs(1, 0)).toBe(500);
    expect(retryDelayMs(40, 0.999999)).toBeCloseTo(RETRY_CAP_MS, -1);
    expect(retryDelayMs(13, 0.5)).toBe(Math.round(RETRY_CAP_MS * 0.75));
  });

  it('tries for about a day: the sum of the delays within the window', () => {
    let elapsed = 0;
    let failures = 0;
    while (!retryWindowOver(0, elapsed, 86_400_000)) elapsed += retryDelayMs(++failures, 0.5);
    expect(failures).toBeGreaterThan(20);
    expect(failures).toBeLessThan(60);
  });
});

describe('event bodies', () => {
  it('carry type, version, id, timestamp and device', () => {
    const body = eventBody('alert', 12, new Date(Date.UTC(2026, 4, 1, 12)), '70B3D57ED0000A01', {} as never);
    expect(body).toEqual({ type: 'alert', version: 1, id: 'evt_12', timestamp: '2026-05-01T12:00:00.000Z', devEUI: '70B3D57ED0000A01', data: {} });
  });
});
