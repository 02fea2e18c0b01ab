import { type DecodeResult, type Measurements, NO_MEASUREMENTS } from './decoder';

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * Reads the measurements out of a vendor codec's `data` object by the names codecs commonly use.
 */
export function measurementsFrom(data: Record<string, unknown>): Measurements {
  const pick = (...names: string[]) => {
    for (const n of names) if (num(data[n]) !== null) return num(data[n]);
    return null;
  };
  const lat = pick('lat', 'latitude', 'LAT');
  const lon = pick('lon', 'lng', 'longitude', 'LON');
  const fw = data.firmware_version ?? data.firmware;
  return {
    ...NO_MEASUREMENTS,
    temperature: pick('temperature', 'temp', 'TempC_SHT', 'temperature_c'),
    humidity: pick('humidity', 'hum', 'Hum_SHT', 'relative_humidity'),
    battery_voltage: pick('battery_voltage', 'battery', 'BatV', 'voltage', 'vbat'),
    battery_percent: pick('battery_percent', 'battery_level', 'bat_percent'),
    lat: lat !== null && lon !== null && lat >= -90 && lat <= 90 ? lat : null,
    lon: lat !== null && lon !== null && lon >= -180 && lon <= 180 ? lon : null,
    alt: lat !== null && lon !== null ? pick('alt', 'altitude', 'ALT') : null,
    firmware_version: typeof fw === 'string' ? fw.slice(0, 64) : null,
  };
}

/**
 * Turns what a codec's decodeUplink returned (`{data, warnings, errors}` in the LoRaWAN codec
 * convention) into a decode result; anything else is junk and makes the uplink invalid.
 */
export function fromCodecOutput(output: unknown): DecodeResult {
  if (typeof output !== 'object' || output === null || Array.isArray(output)) {
    return { decoded: {}, valid: false, error: 'the codec returned no object', measurements: { ...NO_MEASUREMENTS } };
  }
  const { data, errors, warnings } = output as { data?: unknown; errors?: unknown; warnings?: unknown };
  const errorList = Array.isArray(errors) ? errors.map(String).filter(Boolean) : [];
  if (errorList.length > 0) return { decoded: typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {}, valid: false, error: errorList.join('; ').slice(0, 500), measurements: { ...NO_MEASUREMENTS } };
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { decoded: {}, valid: false, error: 'the codec returned no data object', measurements: { ...NO_MEASUREMENTS } };
  }
  const decoded = data as Record<string, unknown>;
  if (Array.isArray(warnings) && warnings.length > 0) decoded._warnings = warnings.map(String).slice(0, 20);
  return { decoded, valid: true, error: null, measurements: measurementsFrom(decoded) };
}
