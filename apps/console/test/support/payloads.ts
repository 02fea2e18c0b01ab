/** A Cayenne LPP payload (hex): temperature on channel 1 and GPS on channel 3 (altitude 2 m). */
export function lpp(t: number, lat: number, lon: number): string {
  const b = Buffer.alloc(4 + 11);
  b.writeUInt8(1, 0);
  b.writeUInt8(0x67, 1);
  b.writeInt16BE(Math.round(t * 10), 2);
  b.writeUInt8(3, 4);
  b.writeUInt8(0x88, 5);
  b.writeIntBE(Math.round(lat * 1e4), 6, 3);
  b.writeIntBE(Math.round(lon * 1e4), 9, 3);
  b.writeIntBE(200, 12, 3);
  return b.toString('hex');
}
