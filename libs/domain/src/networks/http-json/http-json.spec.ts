import { uplinksOf } from '../network';
import { HTTP_JSON } from '.';
import { DEFAULT_HTTP_JSON_MAPPING, parsePath, readHttpJsonMapping, valueAt } from './mapping';

const now = new Date('2026-05-01T12:00:10Z');
const read = (body: unknown, mapping?: unknown) => uplinksOf(HTTP_JSON.ingest!.read(body, {}, now, mapping));

describe('HTTP JSON paths', () => {
  it('read dot paths with indices and JSON Pointers, own members only', () => {
    const body = { a: { 'b/c': [{ d: 1 }], rx: [{ rssi: -70 }] } };
    expect(valueAt(body, parsePath('a.rx[0].rssi') as never)).toBe(-70);
    expect(valueAt(body, parsePath('/a/b~1c/0/d') as never)).toBe(1);
    expect(valueAt(body, parsePath('a.toString') as never)).toBeUndefined();
    expect(valueAt([5, 6], parsePath('[1]') as never)).toBe(6);
  });

  it.each(['', 'a..b', 'a.', '.a', 'a[x]', '__proto__', 'a.constructor', '/a//b', 'x'.repeat(201)])('refuse %j', (path) => {
    expect(typeof parsePath(path)).toBe('string');
  });
});

describe('HTTP JSON mappings', () => {
  it('default what they leave out and name the member they refuse', () => {
    expect(readHttpJsonMapping(undefined)).toEqual(DEFAULT_HTTP_JSON_MAPPING);
    expect(readHttpJsonMapping({ devEUI: 'eui', rssi: null })).toEqual({ ...DEFAULT_HTTP_JSON_MAPPING, devEUI: 'eui', rssi: null });
    expect(readHttpJsonMapping({ devEUI: 5 })).toMatchObject({ field: 'mapping.devEUI' });
    expect(readHttpJsonMapping({ port: null })).toMatchObject({ field: 'mapping.port' });
    expect(readHttpJsonMapping({ payload_encoding: 'utf8' })).toMatchObject({ field: 'mapping.payload_encoding' });
    expect(readHttpJsonMapping({ extra: 'x' })).toMatchObject({ field: 'mapping.extra' });
  });
});

describe('HTTP JSON uplinks', () => {
  it('read the default members', () => {
    const [item] = read({ devEUI: '70b3d57ed0001234', port: 2, payload: '0102', time: 1_777_636_800, rssi: -80, snr: 7, fcnt: 3, id: 'abc' });
    expect(item).toMatchObject({
      ok: true,
      uplink: { devEUI: '70B3D57ED0001234', port: 2, fcnt: 3, rssi: -80, snr: 7, messageId: 'id:abc', receivedAt: new Date('2026-05-01T12:00:00Z') },
    });
  });

  it('read through a mapping, items at a path, Base64 payloads and RFC 3339 times', () => {
    const mapping = { devEUI: 'dev.eui', port: 'f', payload: 'b', payload_encoding: 'base64', time: 'at', message_id: null, items: '/batch' };
    const items = read({ batch: [{ dev: { eui: '70b3d57ed0001234' }, f: 1, b: 'AQI=', at: '2026-05-01T11:00:00Z' }] }, mapping);
    expect(items).toEqual([
      expect.objectContaining({ ok: true, uplink: expect.objectContaining({ port: 1, messageId: null, receivedAt: new Date('2026-05-01T11:00:00Z') }) }),
    ]);
  });

  it('refuse an item naming the mapped path, with its device when it has one', () => {
    expect(read({ dev: { eui: '70b3d57ed0001234' }, f: 1 }, { devEUI: 'dev.eui', port: 'f', payload: 'b' })).toEqual([
      { ok: false, devEUI: '70B3D57ED0001234', problem: { code: 'VALIDATION_FAILED', field: 'b', message: 'b is required' } },
    ]);
    expect(read({ devEUI: '70b3d57ed0001234', port: 1, payload: 'zz' })[0]).toMatchObject({ ok: false, problem: { field: 'payload' } });
    expect(read({ devEUI: '70b3d57ed0001234', port: 1, payload: '01', time: 'soon' })[0]).toMatchObject({ ok: false, problem: { field: 'time' } });
  });

  it('refuse a delivery whose items are not where the mapping says, or too many', () => {
    expect(() => read({ batch: {} }, { items: 'batch' })).toThrow(expect.objectContaining({ field: 'batch' }));
    expect(() => read([])).toThrow(expect.objectContaining({ field: 'body' }));
    expect(() => read(Array(1001).fill({}))).toThrow(expect.objectContaining({ field: 'body' }));
  });
});
