import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The real vendor codecs of test-data/lorawan-devices that large scripts are made of. */
const PARTS = [
  'laird/rs1xx-temp-rh-sensor.js',
  'tektelic/decoder_smart_room_sensor.js',
  'tektelic/encoder_smart_room_sensor.js',
  'decentlab/dl-downlink-codec.js',
  'elsys/elsys.js',
];

/**
 * A script of about `bytes` bytes of real vendor code, for measuring what loading a large codec
 * costs (a 321 KB one, Abeeway's, is not in the test data): the vendor scripts of the test data,
 * each in a scope of its own and kept alive (their functions stay compiled), repeated to the size,
 * with Laird's decodeUplink as the codec's. For tests and benchmarks only.
 */
export function largeCodecScript(bytes: number, root = join(__dirname, '../../../..')): string {
  const read = (path: string) => readFileSync(join(root, 'test-data/lorawan-devices/vendor', path), 'utf8');
  const kept = 'return { d: typeof decodeUplink === "function" ? decodeUplink : null, e: typeof encodeDownlink === "function" ? encodeDownlink : null };';
  const tail = 'function decodeUplink(input) { return kept[0].d(input); }\n';
  const parts = PARTS.map((path) => `kept.push((function () {\n${read(path)}\n;${kept}\n})());\n`);
  let script = 'var kept = [];\n';
  // Laird's first (its decodeUplink is the codec's), then whichever parts still fit, then comments to the size.
  for (let added = true; added;) {
    added = false;
    for (const part of parts) {
      if (Buffer.byteLength(script) + Buffer.byteLength(part) + tail.length > bytes) continue;
      script += part;
      added = true;
    }
  }
  const room = bytes - Buffer.byteLength(script) - tail.length;
  return `${script}${'/* padding */\n'.repeat(Math.max(0, Math.floor(room / 14)))}${tail}`;
}
