import { ByteReader, scaled } from '../bytes';
import { type Decoder, invalid, NO_MEASUREMENTS } from '../decoder';

/**
 * DT-ENV-1 environment sensor, port 1 (12 bytes, big-endian):
 * | bytes | member       | encoding              |
 * |-------|--------------|-----------------------|
 * | 0–1   | temperature  | int16, 0.01 °C        |
 * | 2     | humidity     | uint8, 0.5 %RH        |
 * | 3–4   | pressure     | uint16, 0.1 hPa       |
 * | 5–6   | illuminance  | uint16, lux           |
 * | 7–8   | co2          | uint16, ppm           |
 * | 9–10  | bat          | uint16, mV            |
 * | 11    | bat_percent  | uint8, %              |
 * 0x7FFF temperature or 0xFF humidity mean "no sensor reading".
 */
export const dtEnvironmentDecoder: Decoder = (bytes, port) => {
  const r = new ByteReader(bytes);
  try {
    if (port !== 1) throw new RangeError(`port ${port} is not the environment report port (1)`);
    if (bytes.length !== 12) throw new RangeError(`an environment report has 12 bytes, not ${bytes.length}`);
    const rawT = r.i16();
    const rawH = r.u8();
    const temperature = rawT === 0x7fff ? null : scaled(rawT, 0.01, 2);
    const humidity = rawH === 0xff ? null : scaled(rawH, 0.5, 1);
    if (humidity !== null && humidity > 100) throw new RangeError(`humidity ${humidity} % is out of range`);
    const pressure = scaled(r.u16(), 0.1, 1);
    const illuminance = r.u16();
    const co2 = r.u16();
    const bat = r.u16();
    const bat_percent = r.u8();
    return {
      decoded: { temperature, humidity, pressure, illuminance, co2, bat, bat_percent },
      valid: true,
      error: null,
      measurements: { ...NO_MEASUREMENTS, temperature, humidity, battery_voltage: scaled(bat, 0.001, 3), battery_percent: bat_percent },
    };
  } catch (error) {
    return invalid({}, (error as Error).message);
  }
};
