/** Big-endian readers over a payload; each throws RangeError past the end (decoders catch it). */
export class ByteReader {
  private offset = 0;

  constructor(private readonly bytes: Uint8Array) {}

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
    return this.bytes[this.take(1)];
  }

  u16(): number {
    const at = this.take(2);
    return (this.bytes[at] << 8) | this.bytes[at + 1];
  }

  i16(): number {
    const v = this.u16();
    return v & 0x8000 ? v - 0x10000 : v;
  }

  u24(): number {
    const at = this.take(3);
    return (this.bytes[at] << 16) | (this.bytes[at + 1] << 8) | this.bytes[at + 2];
  }

  i24(): number {
    const v = this.u24();
    return v & 0x800000 ? v - 0x1000000 : v;
  }

  u32(): number {
    const at = this.take(4);
    return ((this.bytes[at] << 24) >>> 0) + ((this.bytes[at + 1] << 16) | (this.bytes[at + 2] << 8) | this.bytes[at + 3]);
  }

  i32(): number {
    const v = this.u32();
    return v > 0x7fffffff ? v - 0x100000000 : v;
  }
}

/** Rounds away binary noise from scaled integers: 215 * 0.1 is 21.5, not 21.500000000000004. */
export function scaled(raw: number, factor: number, digits: number): number {
  return Number((raw * factor).toFixed(digits));
}
