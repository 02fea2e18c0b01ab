import type { DeviceFamily } from '../family';
import { cayenneLppDecoder } from './decoder';

export * from './decoder';
export * from './uplink-encoder';

/** Any device speaking the public Cayenne Low Power Payload format. */
export const CAYENNE_LPP: DeviceFamily = {
  uid: 2,
  name: 'Cayenne LPP',
  decode: cayenneLppDecoder,
  commands: [
    {
      name: 'set_digital_output',
      description: 'Cayenne LPP digital output: channel, type 0x01, value.',
      port: 99,
      params: {
        channel: { type: 'integer', description: 'LPP channel.', minimum: 0, maximum: 255 },
        value: { type: 'integer', description: '0 or 1.', minimum: 0, maximum: 1 },
      },
      encode: (p) => Uint8Array.from([p.channel as number, 0x01, p.value as number]),
    },
  ],
};
