import { CONTROL_PORT, interval, reboot, toggle } from '../dt-control';
import type { DeviceFamily } from '../family';
import { dtTrackerDecoder } from './decoder';

export * from './decoder';
export * from './uplink-encoder';

/** DT-GPS-1 trackers. */
export const DT_TRACKER: DeviceFamily = {
  uid: 3,
  name: 'DT Tracker',
  decode: dtTrackerDecoder,
  commands: [
    interval(30),
    {
      name: 'request_position',
      description: 'Take and report a GPS fix now. Bytes: 0x02.',
      port: CONTROL_PORT,
      params: {},
      encode: () => Uint8Array.from([0x02]),
    },
    toggle('set_gps', 0x03, 'GPS receiver'),
    reboot,
  ],
};
