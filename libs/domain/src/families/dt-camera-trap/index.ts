import { CONTROL_PORT, interval, reboot, toggle } from '../dt-control';
import type { DeviceFamily } from '../family';
import { dtCameraTrapDecoder } from './decoder';

export * from './decoder';
export * from './uplink-encoder';

/** DT-CAM-1 camera traps (their photos arrive through the image routes, docs/api.md §7). */
export const DT_CAMERA_TRAP: DeviceFamily = {
  uid: 5,
  name: 'DT Camera Trap',
  decode: dtCameraTrapDecoder,
  commands: [
    { name: 'take_photo', description: 'Take a photo now. Bytes: 0x10.', port: CONTROL_PORT, params: {}, encode: () => Uint8Array.from([0x10]) },
    toggle('set_pir', 0x11, 'Motion trigger'),
    toggle('set_night_mode', 0x12, 'Infrared night mode'),
    interval(300),
    reboot,
  ],
};
