/** A Cayenne LPP payload (hex): temperature (ch 1), humidity (ch 2), GPS (ch 3), voltage (ch 4). */
export function lpp(v: { t?: number; h?: number; gps?: [number, number, number]; volt?: number }): string {
  const parts: Buffer[] = [];
  const i24 = (n: number) => {
    const b = Buffer.alloc(3);
    b.writeIntBE(Math.round(n), 0, 3);
    return b;
  };
  if (v.t !== undefined) {
    const b = Buffer.from([1, 0x67, 0, 0]);
    b.writeInt16BE(Math.round(v.t * 10), 2);
    parts.push(b);
  }
  if (v.h !== undefined) parts.push(Buffer.from([2, 0x68, Math.round(v.h * 2)]));
  if (v.gps) parts.push(Buffer.from([3, 0x88]), i24(v.gps[0] * 1e4), i24(v.gps[1] * 1e4), i24(v.gps[2] * 100));
  if (v.volt !== undefined) {
    const b = Buffer.from([4, 0x74, 0, 0]);
    b.writeUInt16BE(Math.round(v.volt * 100), 2);
    parts.push(b);
  }
  return Buffer.concat(parts).toString('hex').toUpperCase();
}
