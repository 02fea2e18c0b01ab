/**
 * Uplink payload encoders: the inverse of the built-in decoders (byte layouts in
 * ../decoders), for demo data and simulators that must produce what a real device sends.
 * Values are rounded to the layout's resolution and clamped to its range.
 */

class ByteWriter {
  private readonly bytes: number[] = [];

  u8(v: number): this {
    this.bytes.push(clampInt(v, 0, 0xff));
    return this;
  }

  u16(v: number): this {
    const n = clampInt(v, 0, 0xffff);
    this.bytes.push(n >>> 8, n & 0xff);
    return this;
  }

  i16(v: number): this {
    return this.u16(clampInt(v, -0x8000, 0x7fff) & 0xffff);
  }

  i24(v: number): this {
    const n = clampInt(v, -0x800000, 0x7fffff) & 0xffffff;
    this.bytes.push(n >>> 16, (n >>> 8) & 0xff, n & 0xff);
    return this;
  }

  u32(v: number): this {
    const n = clampInt(v, 0, 0xffffffff);
    this.bytes.push(Math.floor(n / 0x1000000) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
    return this;
  }

  i32(v: number): this {
    const n = clampInt(v, -0x80000000, 0x7fffffff);
    return this.u32(n < 0 ? n + 0x100000000 : n);
  }

  done(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

function clampInt(v: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Math.round(v)));
}

export interface TrackerPosition {
  tsUnix: number;
  lat: number;
  lon: number;
  alt: number;
  /** Seconds to fix. */
  ttf: number;
  dop: number;
  batteryMv: number;
  batteryPercent: number;
  /** Report counter. */
  uid: number;
  firmware?: [number, number, number];
}

/** DT Tracker port 1 position report (28 bytes), with a valid time and fix. */
export function encodeDtTrackerPosition(p: TrackerPosition): Uint8Array {
  const [maj, min, build] = p.firmware ?? [1, 4, 212];
  const flags = 0x01 | 0x02 | 0x04 | 0x10;
  return new ByteWriter()
    .u8(flags)
    .u32(p.tsUnix)
    .i32(p.lat * 1e7)
    .i32(p.lon * 1e7)
    .i16(p.alt)
    .u8(p.ttf)
    .u8(p.dop * 10)
    .u16(p.batteryMv)
    .u16(p.batteryMv - 300)
    .u8(p.batteryPercent)
    .u8(maj)
    .u8(min)
    .u16(build)
    .u16(p.uid)
    .done();
}

export interface EnvironmentReport {
  temperature: number;
  humidity: number;
  pressure: number;
  illuminance: number;
  co2: number;
  batteryMv: number;
  batteryPercent: number;
}

/** DT Environment port 1 report (12 bytes). */
export function encodeDtEnvironment(r: EnvironmentReport): Uint8Array {
  return new ByteWriter()
    // 0x7FFF means "no reading": the warmest value sent is one step below.
    .i16(Math.min(0x7ffe, r.temperature * 100))
    .u8(Math.min(100, r.humidity) * 2)
    .u16(r.pressure * 10)
    .u16(r.illuminance)
    .u16(r.co2)
    .u16(r.batteryMv)
    .u8(r.batteryPercent)
    .done();
}

export interface CameraTrapStatus {
  batteryMv: number;
  batteryPercent: number;
  temperature: number;
  photos: number;
  storageFreeMb: number;
  sdOk: boolean;
  pirEnabled: boolean;
  nightMode: boolean;
}

/** DT Camera Trap port 3 status (10 bytes). */
export function encodeDtCameraTrapStatus(s: CameraTrapStatus): Uint8Array {
  return new ByteWriter()
    .u16(s.batteryMv)
    .u8(s.batteryPercent)
    .i16(s.temperature * 100)
    .u16(s.photos)
    .u16(s.storageFreeMb)
    .u8((s.sdOk ? 1 : 0) | (s.pirEnabled ? 2 : 0) | (s.nightMode ? 4 : 0))
    .done();
}

/** One Cayenne LPP value: the types a demo device reports. */
export type LppValue =
  | { channel: number; type: 'temperature'; value: number }
  | { channel: number; type: 'humidity'; value: number }
  | { channel: number; type: 'voltage'; value: number }
  | { channel: number; type: 'barometer'; value: number }
  | { channel: number; type: 'gps'; lat: number; lon: number; alt: number };

/** A Cayenne LPP payload of those values, in order. */
export function encodeCayenneLpp(values: readonly LppValue[]): Uint8Array {
  const w = new ByteWriter();
  for (const v of values) {
    w.u8(v.channel);
    switch (v.type) {
      case 'temperature':
        w.u8(103).i16(v.value * 10);
        break;
      case 'humidity':
        w.u8(104).u8(Math.min(100, v.value) * 2);
        break;
      case 'voltage':
        w.u8(116).u16(v.value * 100);
        break;
      case 'barometer':
        w.u8(115).u16(v.value * 10);
        break;
      case 'gps':
        w.u8(136).i24(v.lat * 1e4).i24(v.lon * 1e4).i24(v.alt * 100);
        break;
    }
  }
  return w.done();
}
