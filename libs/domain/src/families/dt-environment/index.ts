import { interval, reboot } from '../dt-control';
import type { DeviceFamily } from '../family';
import { dtEnvironmentDecoder } from './decoder';

export * from './decoder';
export * from './uplink-encoder';

/** DT-ENV-1 environment sensors. */
export const DT_ENVIRONMENT: DeviceFamily = { uid: 4, name: 'DT Environment', decode: dtEnvironmentDecoder, commands: [interval(60), reboot] };
