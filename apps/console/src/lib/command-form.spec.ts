import { i18n } from '../i18n';
import type { AvailableCommandWire } from '@dts/domain';
import { namedCommandRequest, paramFields, rawCommandRequest } from './command-form';

const setInterval: AvailableCommandWire = {
  name: 'set_interval',
  description: 'Reporting interval.',
  port: 10,
  params: { seconds: { type: 'integer', description: 'Seconds between reports.', minimum: 30, maximum: 86_400 } },
};
const gps: AvailableCommandWire = { name: 'set_gps', description: 'GPS', port: 10, params: { enabled: { type: 'boolean', description: 'on or off' } } };

describe('command forms', () => {
  it('builds fields from the parameter schemas', () => {
    expect(paramFields(setInterval)).toEqual([{ name: 'seconds', kind: 'integer', description: 'Seconds between reports.', minimum: 30, maximum: 86_400 }]);
  });

  it('turns values into a named command, or names what is wrong', () => {
    expect(namedCommandRequest(setInterval, { seconds: '600' }, false)).toEqual({ request: { command: 'set_interval', params: { seconds: 600 } } });
    expect(namedCommandRequest(setInterval, { seconds: '10' }, false)).toEqual({ problems: { seconds: 'at least 30' } });
    expect(namedCommandRequest(setInterval, { seconds: '1.5' }, false)).toEqual({ problems: { seconds: 'a whole number' } });
    expect(namedCommandRequest(setInterval, {}, false)).toEqual({ problems: { seconds: 'required' } });
    expect(namedCommandRequest(gps, { enabled: true }, true)).toEqual({ request: { command: 'set_gps', params: { enabled: true }, confirmed: true } });
  });

  it('checks raw downlinks', () => {
    expect(rawCommandRequest('2', 'payload_hex', 'ca fe', false)).toEqual({ request: { port: 2, payload_hex: 'cafe' } });
    expect(rawCommandRequest('0', 'payload_hex', 'xyz', false)).toEqual({ problems: { port: 'a port from 1 to 223', payload: 'pairs of hexadecimal digits' } });
    expect(rawCommandRequest('5', 'payload_ASCII', 'hi', true)).toEqual({ request: { port: 5, confirmed: true, payload_ASCII: 'hi' } });
  });

  describe('in German', () => {
    beforeAll(() => i18n.changeLanguage('de'));
    afterAll(() => i18n.changeLanguage('en'));

    it('names what is wrong in German', () => {
      expect(namedCommandRequest(setInterval, { seconds: '10' }, false)).toEqual({ problems: { seconds: 'mindestens 30' } });
      expect(rawCommandRequest('0', 'payload_hex', 'xyz', false)).toEqual({
        problems: { port: 'ein Port von 1 bis 223', payload: 'Paare von Hexadezimalziffern' },
      });
    });
  });
});
