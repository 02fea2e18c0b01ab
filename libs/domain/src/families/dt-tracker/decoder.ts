import { ByteReader, scaled } from '../bytes';
import { type Decoder, invalid, NO_MEASUREMENTS } from '../decoder';

/**
 * DT-GPS-1 tracker family, big-endian.
 *
 * Port 1, position report (28 bytes):
 * | bytes | member                      | encoding                                       |
 * |-------|-----------------------------|------------------------------------------------|
 * | 0     | flags                       | bit0 valid_datetime, bit1 valid_status, bit2 valid_gps, bit3 valid_aux, bit4 enable |
 * | 1–4   | ts_unix                     | uint32, seconds (device clock)                 |
 * | 5–8   | lat                         | int32, 1e-7 degrees                            |
 * | 9–12  | lon                         | int32, 1e-7 degrees                            |
 * | 13–14 | alt                         | int16, metres                                  |
 * | 15    | ttf                         | uint8, seconds to fix                          |
 * | 16    | dop                         | uint8, 0.1                                     |
 * | 17–18 | bat                         | uint16, mV (main battery)                      |
 * | 19–20 | bat_lora                    | uint16, mV (radio supply)                      |
 * | 21    | bat_percent                 | uint8, %                                       |
 * | 22–25 | fw_maj, fw_min, fw_build    | uint8, uint8, uint16                           |
 * | 26–27 | uid                         | uint16, report counter                         |
 *
 * Port 2, heartbeat (10 bytes): flags, bat, bat_lora, bat_percent, fw_maj, fw_min, fw_build, as above.
 * `valid` is valid_datetime and valid_gps on port 1, valid_status on port 2; a position whose
 * fix is not valid is kept in payload_decoded but not used as the device's position.
 */
function flags(byte: number) {
  return {
    valid_datetime: Boolean(byte & 0x01),
    valid_status: Boolean(byte & 0x02),
    valid_gps: Boolean(byte & 0x04),
    valid_aux: Boolean(byte & 0x08),
    enable: Boolean(byte & 0x10),
  };
}

function power(r: ByteReader) {
  const bat = r.u16();
  const bat_lora = r.u16();
  const bat_percent = r.u8();
  const fw_maj = r.u8();
  const fw_min = r.u8();
  const fw_build = r.u16();
  return { bat, bat_lora, bat_percent, fw_maj, fw_min, fw_build, firmware_version: `${fw_maj}.${fw_min}.${fw_build}` };
}

export const dtTrackerDecoder: Decoder = (bytes, port) => {
  const r = new ByteReader(bytes);
  try {
    if (port === 1) {
      if (bytes.length !== 28) throw new RangeError(`a position report has 28 bytes, not ${bytes.length}`);
      const f = flags(r.u8());
      const ts_unix = r.u32();
      const lat = scaled(r.i32(), 1e-7, 7);
      const lon = scaled(r.i32(), 1e-7, 7);
      const alt = r.i16();
      const ttf = r.u8();
      const dop = scaled(r.u8(), 0.1, 1);
      const p = power(r);
      const uid = r.u16();
      if (lat < -90 || lat > 90 || lon < -180 || lon > 180) throw new RangeError(`position ${lat}, ${lon} is out of range`);
      const valid = f.valid_datetime && f.valid_gps;
      const decoded = { ...f, ts_unix, lat, lon, alt, ttf, dop, ...p, uid, valid };
      return {
        decoded,
        valid,
        error: valid ? null : 'no valid GPS fix',
        measurements: {
          ...NO_MEASUREMENTS,
          battery_voltage: scaled(p.bat, 0.001, 3),
          battery_percent: p.bat_percent,
          firmware_version: p.firmware_version,
          ...(f.valid_gps ? { lat, lon, alt } : {}),
        },
      };
    }
    if (port === 2) {
      if (bytes.length !== 10) throw new RangeError(`a heartbeat has 10 bytes, not ${bytes.length}`);
      const f = flags(r.u8());
      const p = power(r);
      const decoded = { ...f, ...p, valid: f.valid_status };
      return {
        decoded,
        valid: f.valid_status,
        error: f.valid_status ? null : 'status not valid',
        measurements: { ...NO_MEASUREMENTS, battery_voltage: scaled(p.bat, 0.001, 3), battery_percent: p.bat_percent, firmware_version: p.firmware_version },
      };
    }
    throw new RangeError(`port ${port} is not a tracker port (1 position, 2 heartbeat)`);
  } catch (error) {
    return invalid({}, (error as Error).message);
  }
};
