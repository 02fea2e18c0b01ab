import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DeliveryError, uplinksOf } from '../network';
import { CHIRPSTACK } from '.';
import { chirpstackProtobufToJson } from './protobuf';

/** ChirpStack's own event examples and their Protobuf encoding (test-data/chirpstack, sources in its README). */
const DATA = join(__dirname, '../../../../../test-data/chirpstack');
const json = (file: string): unknown => JSON.parse(readFileSync(join(DATA, file), 'utf8'));
const bin = (file: string) => new Uint8Array(readFileSync(join(DATA, file)));
const now = new Date('2026-05-01T12:00:10Z');
const read = (event: string, body: unknown) => CHIRPSTACK.ingest!.read(body, { event }, now);
const refusal = (event: string, body: unknown) => {
  try {
    read(event, body);
  } catch (error) {
    if (error instanceof DeliveryError) return { field: error.field, message: error.message };
  }
  return null;
};

describe('ChirpStack v4 events (test-data docs examples)', () => {
  it('status: the battery level and the link margin', () => {
    expect(read('status', json('docs/status.json'))).toEqual({
      device: {
        type: 'status',
        devEUI: '0101010101010101',
        at: new Date('2022-07-18T09:35:06.927Z'),
        kind: 'status',
        batteryPercent: 88.3,
        marginDb: 10,
      },
    });
    const external = { ...(json('docs/status.json') as object), externalPowerSource: true };
    expect(read('status', external)).toMatchObject({ device: { batteryPercent: null, marginDb: 10 } });
  });

  it('join: the device’s activity', () => {
    expect(read('join', json('docs/join.json'))).toEqual({
      device: { type: 'join', devEUI: '0101010101010101', at: new Date('2022-07-18T09:33:28.823Z'), kind: 'activity' },
    });
  });

  it('location: the network position of the uplink with the same deduplicationId', () => {
    expect(read('location', json('docs/location.json'))).toMatchObject({
      device: {
        kind: 'position',
        devEUI: '0101010101010101',
        messageId: 'dedup:63d870b9-b769-4d88-8b33-8e43f58851a7',
        position: { lat: 37.344214, lon: -8.839375, alt: 2 },
      },
    });
  });

  it('log: a line for the service’s log, at its level', () => {
    expect(read('log', json('docs/log.json'))).toEqual({
      notice: {
        type: 'log',
        devEUI: '0101010101010101',
        action: 'logged: ERROR UPLINK_MIC',
        log: { level: 'error', message: expect.stringContaining('MIC of join-request is invalid') },
      },
    });
  });

  it('integration: acknowledged', () => {
    expect(read('integration', json('docs/integration.json'))).toMatchObject({
      notice: { type: 'integration', action: expect.stringContaining('loracloud') },
    });
  });

  it('up, txack and ack as before', () => {
    expect(uplinksOf(read('up', json('docs/up.json')))[0]).toMatchObject({ ok: true, uplink: { devEUI: '0101010101010101', port: 1, fcnt: 0, rssi: -36 } });
    expect(read('txack', json('docs/txack.json'))).toMatchObject({ event: { status: 'Sent', command: { networkId: expect.any(String) } } });
    expect(read('ack', json('docs/ack.json'))).toMatchObject({ event: { status: 'Acknowledged' } });
  });

  it('refuses an unknown event, a missing queue item, a malformed member, naming the field', () => {
    expect(refusal('gateway', {})).toMatchObject({ field: 'event' });
    expect(refusal('ack', { acknowledged: true })).toMatchObject({ field: 'queueItemId' });
    expect(refusal('status', { ...(json('docs/status.json') as object), batteryLevel: 'full' })).toMatchObject({ field: 'batteryLevel' });
    expect(refusal('join', { time: '2022-07-18T09:33:28Z' })).toMatchObject({ field: 'deviceInfo.devEui' });
    expect(refusal('location', { ...(json('docs/location.json') as object), time: 'soon' })).toMatchObject({ field: 'time' });
  });
});

describe('ChirpStack v4 Protobuf (test-data/chirpstack/protobuf, encoded from the docs examples)', () => {
  it.each(['up', 'join', 'ack', 'txack', 'log', 'status', 'location'])('%s.bin reads as its JSON example does', (event) => {
    const fromJson = read(event, json(`docs/${event}.json`));
    const fromProtobuf = read(event, bin(`protobuf/${event}.bin`));
    expect(fromProtobuf).toEqual(fromJson);
  });

  it('decodes the fields the service reads, as the official classes do', () => {
    expect(chirpstackProtobufToJson('up', bin('protobuf/up.bin'))).toMatchObject({
      devAddr: '00189440',
      fPort: 1,
      data: 'qg==',
      rxInfo: [{ rssi: -36, snr: 10.5 }],
      txInfo: { modulation: { lora: { spreadingFactor: expect.any(Number) } } },
    });
    expect(chirpstackProtobufToJson('status', bin('protobuf/status.bin'))).toMatchObject({ margin: 10, batteryLevel: 88.3 });
    expect(chirpstackProtobufToJson('log', bin('protobuf/log.bin'))).toMatchObject({
      level: 'ERROR',
      code: 'UPLINK_MIC',
      context: { deduplication_id: '4e91db13-5ce3-4c8c-ab0f-dfc626cf0771' },
    });
  });

  it('reads the captured uplinks’ encodings as their JSON', () => {
    for (const name of ['decentlab-dl-sht35-001.payload', 'decentlab-dl-sht35-001.payload_01', 'milesight-em300-th.payload']) {
      const fromProtobuf = uplinksOf(read('up', bin(`protobuf/captured/${name}.bin`)))[0];
      const fromJson = uplinksOf(read('up', json(`captured/${name}.json`)))[0];
      expect(fromProtobuf).toMatchObject({ ok: true });
      expect(fromProtobuf).toEqual(fromJson);
    }
  });

  it('refuses a truncated or mangled body, and integration (JSON only), naming the body or the event', () => {
    const up = bin('protobuf/up.bin');
    expect(refusal('up', up.subarray(0, up.length - 3))).toMatchObject({ field: 'body', message: expect.stringContaining('Protobuf up') });
    expect(refusal('status', Uint8Array.of(0x0b, 0x00))).toMatchObject({ field: 'body' });
    expect(refusal('integration', Uint8Array.of())).toMatchObject({ field: 'event' });
  });
});
