/** Big-endian readers over a payload; each throws RangeError past the end (decoders catch it). */
export class ByteReader {
  private offset = 0;
  private readonly view: DataView;

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get remaining(): number {
    return this.bytes.length - this.offset;
  }

  private take(n: number): number {
    if (this.offset + n > this.bytes.length) throw new RangeError(`payload ends after ${this.bytes.length} bytes, ${this.offset + n} needed`);
    const at = this.offset;
    this.offset += n;
    return at;
  }

  u8(): number {
    return this.view.getUint8(this.take(1));
  }

  u16(): number {
    return this.view.getUint16(this.take(2));
  }

  i16(): number {
    return this.view.getInt16(this.take(2));
  }

  u24(): number {
    const at = this.take(3);
    return (this.view.getUint8(at) << 16) | this.view.getUint16(at + 1);
  }

  i24(): number {
    const v = this.u24();
    return v & 0x800000 ? v - 0x1000000 : v;
  }

  u32(): number {
    return this.view.getUint32(this.take(4));
  }

  i32(): number {
    return this.view.getInt32(this.take(4));
  }
}

/** Rounds away binary noise from scaled integers: 215 * 0.1 is 21.5, not 21.500000000000004. */
export function scaled(raw: number, factor: number, digits: number): number {
  return Number((raw * factor).toFixed(digits));
}

/** Big-endian writers for uplink encoders: values are rounded and clamped to what the field can carry. */
export class ByteWriter {
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
