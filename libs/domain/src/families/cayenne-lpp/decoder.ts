import { ByteReader, scaled } from '../bytes';
import type { Measurements } from '../../wire/measurements';
import { type Decoder, invalid, NO_MEASUREMENTS } from '../decoder';

/**
 * Cayenne Low Power Payload: a sequence of (channel, type, value) triples, big-endian. The types
 * are the extended list of ElectronicCats/CayenneLPP, pycayennelpp and The Things Stack (Polyline,
 * 240, has no fixed size and no vector anywhere: not decoded). The 4-byte types are unsigned
 * (ffffffff is 4294967295); their values and every other type are checked against the vectors of
 * independent implementations in test-data/cayenne-lpp (lpp-vectors.spec.ts).
 *
 * | type | name            | size | value                                   |
 * |------|-----------------|------|-----------------------------------------|
 * | 0    | digital_in      | 1    | unsigned                                |
 * | 1    | digital_out     | 1    | unsigned                                |
 * | 2    | analog_in       | 2    | signed, 0.01                            |
 * | 3    | analog_out      | 2    | signed, 0.01                            |
 * | 100  | generic         | 4    | unsigned                                |
 * | 101  | illuminance     | 2    | unsigned, lux                           |
 * | 102  | presence        | 1    | unsigned                                |
 * | 103  | temperature     | 2    | signed, 0.1 °C                          |
 * | 104  | humidity        | 1    | unsigned, 0.5 %                         |
 * | 113  | accelerometer   | 6    | 3 × signed, 0.001 G                     |
 * | 115  | barometer       | 2    | unsigned, 0.1 hPa                       |
 * | 116  | voltage         | 2    | unsigned, 0.01 V                        |
 * | 117  | current         | 2    | unsigned, 0.001 A                       |
 * | 118  | frequency       | 4    | unsigned, Hz                            |
 * | 120  | percentage      | 1    | unsigned, %                             |
 * | 121  | altitude        | 2    | signed, m                               |
 * | 122  | load            | 3    | signed, 0.001 kg                        |
 * | 125  | concentration   | 2    | unsigned, ppm                           |
 * | 128  | power           | 2    | unsigned, W                             |
 * | 130  | distance        | 4    | unsigned, 0.001 m                       |
 * | 131  | energy          | 4    | unsigned, 0.001 kWh                     |
 * | 132  | direction       | 2    | unsigned, degrees                       |
 * | 133  | unixtime        | 4    | unsigned, seconds                       |
 * | 134  | gyrometer       | 6    | 3 × signed, 0.01 °/s                    |
 * | 135  | colour          | 3    | r, g, b                                 |
 * | 136  | gps             | 9    | lat, lon: signed 24-bit 0.0001°; alt: signed 24-bit 0.01 m |
 * | 142  | switch          | 1    | unsigned                                |
 *
 * `payload_decoded` has `<name>_<channel>` for every value, the first temperature and humidity
 * also under their plain names (numbers that filters, series and alert rules address either
 * way), except the first GPS reading: that is the device's position, `lat`, `lon` and `alt`
 * (docs/api.md §9), and only there. Written as `gps_<channel>` as well it was the same reading
 * twice in every view of the payload; a further GPS channel is `gps_<channel>`.
 */
type Read = (r: ByteReader) => unknown;

const XYZ =
  (factor: number, digits: number): Read =>
  (r) => ({ x: scaled(r.i16(), factor, digits), y: scaled(r.i16(), factor, digits), z: scaled(r.i16(), factor, digits) });

export const LPP_TYPES: Readonly<Record<number, { name: string; read: Read }>> = {
  0: { name: 'digital_in', read: (r) => r.u8() },
  1: { name: 'digital_out', read: (r) => r.u8() },
  2: { name: 'analog_in', read: (r) => scaled(r.i16(), 0.01, 2) },
  3: { name: 'analog_out', read: (r) => scaled(r.i16(), 0.01, 2) },
  100: { name: 'generic', read: (r) => r.u32() },
  101: { name: 'illuminance', read: (r) => r.u16() },
  102: { name: 'presence', read: (r) => r.u8() },
  103: { name: 'temperature', read: (r) => scaled(r.i16(), 0.1, 1) },
  104: { name: 'humidity', read: (r) => scaled(r.u8(), 0.5, 1) },
  113: { name: 'accelerometer', read: XYZ(0.001, 3) },
  115: { name: 'barometer', read: (r) => scaled(r.u16(), 0.1, 1) },
  116: { name: 'voltage', read: (r) => scaled(r.u16(), 0.01, 2) },
  117: { name: 'current', read: (r) => scaled(r.u16(), 0.001, 3) },
  118: { name: 'frequency', read: (r) => r.u32() },
  120: { name: 'percentage', read: (r) => r.u8() },
  121: { name: 'altitude', read: (r) => r.i16() },
  122: { name: 'load', read: (r) => scaled(r.i24(), 0.001, 3) },
  125: { name: 'concentration', read: (r) => r.u16() },
  128: { name: 'power', read: (r) => r.u16() },
  130: { name: 'distance', read: (r) => scaled(r.u32(), 0.001, 3) },
  131: { name: 'energy', read: (r) => scaled(r.u32(), 0.001, 3) },
  132: { name: 'direction', read: (r) => r.u16() },
  133: { name: 'unixtime', read: (r) => r.u32() },
  134: { name: 'gyrometer', read: XYZ(0.01, 2) },
  135: { name: 'colour', read: (r) => ({ r: r.u8(), g: r.u8(), b: r.u8() }) },
  136: { name: 'gps', read: (r) => ({ lat: scaled(r.i24(), 0.0001, 4), lon: scaled(r.i24(), 0.0001, 4), alt: scaled(r.i24(), 0.01, 2) }) },
  142: { name: 'switch', read: (r) => r.u8() },
};

export const cayenneLppDecoder: Decoder = (bytes) => {
  const decoded: Record<string, unknown> = {};
  const m: Measurements = { ...NO_MEASUREMENTS };
  const reader = new ByteReader(bytes);
  try {
    if (bytes.length === 0) throw new RangeError('empty payload');
    while (reader.remaining > 0) {
      const channel = reader.u8();
      const typeId = reader.u8();
      const type = LPP_TYPES[typeId];
      if (!type) throw new RangeError(`unknown LPP type ${typeId} on channel ${channel}`);
      const value = type.read(reader);
      if (type.name === 'gps' && m.lat === null) {
        const gps = value as { lat: number; lon: number; alt: number };
        Object.assign(decoded, { lat: gps.lat, lon: gps.lon, alt: gps.alt });
        Object.assign(m, { lat: gps.lat, lon: gps.lon, alt: gps.alt });
        continue;
      }
      decoded[`${type.name}_${channel}`] = value;
      switch (type.name) {
        case 'temperature':
          decoded.temperature ??= value;
          m.temperature ??= value as number;
          break;
        case 'humidity':
          decoded.humidity ??= value;
          m.humidity ??= value as number;
          break;
        case 'analog_in':
        case 'voltage':
          m.battery_voltage ??= value as number;
          break;
      }
    }
    return { decoded, valid: true, error: null, measurements: m };
  } catch (error) {
    return invalid(decoded, (error as Error).message);
  }
};
