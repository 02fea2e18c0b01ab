import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DeliveryError, uplinksOf } from '../network';
import { THE_THINGS_STACK } from '.';
import { TTN_UPLINK_SAMPLE as TTN_UPLINK } from './samples';
import { parseTtnUplink } from './uplink';

const now = new Date('2026-05-01T12:00:10Z');

/** The one item a delivery of this body gives. */
const one = (body: unknown) => uplinksOf(THE_THINGS_STACK.ingest!.read(body, {}, now))[0]!;

describe('The Things Stack v3 uplink', () => {
  it('reads every member we use', () => {
    const u = parseTtnUplink(TTN_UPLINK, now);
    expect(u).toMatchObject({
      devEUI: '70B3D57ED0001234',
      port: 2,
      fcnt: 17,
      messageId: 'as:up:01HX0000000000000000000001',
      sf: 9,
      rssi: -97,
      snr: 7.25,
      simulated: true,
      geoloc: { lat: 52.09, lon: 5.12, alt: null },
    });
    expect(Buffer.from(u.payload).toString('hex')).toBe('036701100567 00ff'.replace(/ /g, ''));
    expect(u.receivedAt.toISOString()).toBe('2026-05-01T12:00:00.120Z');
    expect(u.gateways).toEqual([
      { gatewayId: 'gw-north', rssi: -97, snr: 7.25, lat: 52.1, lon: 5.1 },
      { gatewayId: 'gw-south', rssi: -112, snr: -3.5, lat: null, lon: null },
    ]);
  });

  it('reads absent zero members as zero and an absent payload as empty', () => {
    const { f_cnt: _c, frm_payload: _p, ...up } = TTN_UPLINK.uplink_message;
    const u = parseTtnUplink({ ...TTN_UPLINK, correlation_ids: [], uplink_message: { ...up, f_port: undefined } }, now);
    expect(u).toMatchObject({ port: 0, fcnt: 0, messageId: 'fcnt:0@2026-05-01T12:00:00.120Z' });
    expect(u.payload).toHaveLength(0);
  });

  it.each([
    [{ ...TTN_UPLINK, end_device_ids: { dev_eui: 'zz' } }, 'end_device_ids.dev_eui'],
    [{ ...TTN_UPLINK, uplink_message: { ...TTN_UPLINK.uplink_message, frm_payload: '***' } }, 'uplink_message.frm_payload'],
    [{ ...TTN_UPLINK, uplink_message: { ...TTN_UPLINK.uplink_message, frm_payload: Buffer.alloc(243).toString('base64') } }, 'uplink_message.frm_payload'],
    [{ ...TTN_UPLINK, uplink_message: { ...TTN_UPLINK.uplink_message, f_port: 300 } }, 'uplink_message.f_port'],
    [{ ...TTN_UPLINK, uplink_message: { ...TTN_UPLINK.uplink_message, received_at: 'yesterday' } }, 'uplink_message.received_at'],
  ])('refuses a bad body naming %#', (body, field) => {
    const parsed = one(body);
    expect(parsed).toMatchObject({ ok: false, problem: { field } });
  });

  it('calls an oversized payload PAYLOAD_TOO_LARGE', () => {
    const body = { ...TTN_UPLINK, uplink_message: { ...TTN_UPLINK.uplink_message, frm_payload: Buffer.alloc(243).toString('base64') } };
    expect(one(body)).toMatchObject({ ok: false, devEUI: '70B3D57ED0001234', problem: { code: 'PAYLOAD_TOO_LARGE' } });
  });
});

/** The Things Stack's own messages (test-data/the-things-stack, sources in its README). */
const TTS_DATA = join(__dirname, '../../../../../test-data/the-things-stack');
const tts = (file: string): Record<string, unknown> => JSON.parse(readFileSync(join(TTS_DATA, file), 'utf8'));
const read = (body: unknown) => THE_THINGS_STACK.ingest!.read(body, {}, now);

describe('The Things Stack v3 webhook messages (test-data)', () => {
  it('reads the captured uplinks, and the Packet Broker hop is no gateway (its signal still counts)', () => {
    const industries = one(tts('captured/milesight-em300-th.tts-industries.payload.json'));
    expect(industries).toMatchObject({
      ok: true,
      uplink: { devEUI: '1000000000000001', port: 85, fcnt: 5017, messageId: 'as:up:01H0PZDGB1NW6NAPD815NGHPF6', rssi: -24, snr: 12, sf: 7 },
    });
    if (!industries.ok) throw new Error('refused');
    expect(industries.uplink.gateways.map((g) => g.gatewayId)).toEqual(['eui-6A7E111A10000000']);
    expect(Buffer.from(industries.uplink.payload).toString('hex')).toBe('01755c03673401046865');
    for (const file of [
      'captured/milesight-em300-th.tts-community.payload.json',
      'captured/decentlab-dl-sht35-001.tts-community.payload.json',
      'captured/decentlab-dl-sht35-001.tts-community.payload_01.json',
      'docs/uplink_message.json',
      'webhook-test/uplink_message.json',
    ]) {
      expect(one(tts(file))).toMatchObject({ ok: true });
    }
  });

  it('stores uplink_normalized as the uplink it carries', () => {
    expect(one(tts('webhook-test/uplink_normalized.json'))).toMatchObject({ ok: true, uplink: { devEUI: '4242FFFFFFFFFFFF', port: 42, fcnt: 42 } });
  });

  it('a join moves the device’s activity, at the join’s own reception time', () => {
    expect(read(tts('docs/join_accept.json'))).toEqual({
      device: { type: 'join_accept', devEUI: '0004A30B001C0530', at: new Date('2020-02-17T07:49:09.736Z'), kind: 'activity' },
    });
    expect(read(tts('webhook-test/join_accept.json'))).toMatchObject({ device: { kind: 'activity', devEUI: '4242FFFFFFFFFFFF', at: now } });
    // The formatter's minimal join names no device: acknowledged, nothing to move.
    expect(read(tts('formatter-test/join_accept.json'))).toMatchObject({ notice: { type: 'join_accept', devEUI: null } });
  });

  it('a solved location is the network position of its uplink (by as:up id when given)', () => {
    expect(read(tts('webhook-test/location_solved.json'))).toEqual({
      device: {
        type: 'location_solved',
        devEUI: '4242FFFFFFFFFFFF',
        at: now,
        kind: 'position',
        messageId: null,
        position: { lat: 10, lon: 20, alt: 30 },
      },
    });
    const lora = { ...tts('webhook-test/location_solved.json'), ...tts('docs/fragments/location_solved.lora-cloud.json'), correlation_ids: ['as:up:01X'] };
    expect(read(lora)).toMatchObject({ device: { messageId: 'as:up:01X', position: { lat: 51.455, lon: 5.458, alt: null } } });
  });

  it('downlink events of a downlink this service did not send name no command; queued, invalidated and service data are acknowledged', () => {
    for (const [file, status] of [
      ['docs/downlink_ack.json', 'Acknowledged'],
      ['docs/downlink_nack.derived.json', 'Failed'],
      ['docs/downlink_sent.derived.json', 'Sent'],
      ['docs/downlink_failed.json', 'Failed'],
      ['webhook-test/downlink_ack.json', 'Acknowledged'],
      ['webhook-test/downlink_nack.json', 'Failed'],
      ['webhook-test/downlink_sent.json', 'Sent'],
      ['webhook-test/downlink_failed.json', 'Failed'],
    ] as const) {
      expect(read(tts(file))).toMatchObject({ event: { command: null, status } });
    }
    expect(read(tts('docs/downlink_failed.json'))).toMatchObject({ event: { reason: expect.stringContaining('too long') } });
    for (const [file, type] of [
      ['docs/downlink_queued.derived.json', 'downlink_queued'],
      ['webhook-test/downlink_queued.json', 'downlink_queued'],
      ['webhook-test/downlink_queue_invalidated.json', 'downlink_queue_invalidated'],
      ['webhook-test/service_data.json', 'service_data'],
    ] as const) {
      expect(read(tts(file))).toMatchObject({ notice: { type, action: expect.stringMatching(/^acknowledged/) } });
    }
  });

  it('refuses a body that is no message of The Things Stack, or a malformed member of one, naming the field', () => {
    const refusal = (body: unknown) => {
      try {
        read(body);
      } catch (error) {
        if (error instanceof DeliveryError) return { field: error.field, message: error.message };
      }
      return null;
    };
    expect(refusal({ end_device_ids: {} })).toMatchObject({ field: 'body', message: expect.stringContaining('uplink_message') });
    expect(refusal([])).toMatchObject({ field: 'body' });
    expect(refusal({ ...tts('webhook-test/join_accept.json'), end_device_ids: { dev_eui: 'zz' } })).toMatchObject({ field: 'end_device_ids.dev_eui' });
    const badLocation = tts('webhook-test/location_solved.json');
    (badLocation.location_solved as { location: Record<string, unknown> }).location.latitude = 'north';
    expect(refusal(badLocation)).toMatchObject({ field: 'location_solved.location.latitude' });
  });
});
