import { type Decoder, NO_MEASUREMENTS } from './decoder';

/** `raw`: no decoding; the record keeps `payload_hex` and `payload_raw` only. */
export const rawDecoder: Decoder = () => ({ decoded: {}, valid: true, error: null, measurements: { ...NO_MEASUREMENTS } });
