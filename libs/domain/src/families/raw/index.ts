import { type Decoder, NO_MEASUREMENTS } from '../decoder';
import type { DeviceFamily } from '../family';

/** `raw`: no decoding; the record keeps `payload_hex` and `payload_raw` only. */
export const rawDecoder: Decoder = () => ({ decoded: {}, valid: true, error: null, measurements: { ...NO_MEASUREMENTS } });

export const RAW: DeviceFamily = { uid: 1, name: 'raw', decode: rawDecoder, commands: [] };
