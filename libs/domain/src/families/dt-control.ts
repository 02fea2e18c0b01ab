import type { CommandSpec } from './commands';

/** Downlink commands the DT families share: one control port, an opcode, then the value. */

const u32 = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
/** The DT families take their commands on one port. */
export const CONTROL_PORT = 10;

/** The reporting interval, in seconds from `min` to a day. */
export const interval = (min: number): CommandSpec => ({
  name: 'set_interval',
  description: 'Reporting interval. Bytes: 0x01, seconds as uint32 big-endian.',
  port: CONTROL_PORT,
  params: { seconds: { type: 'integer', description: 'Seconds between reports.', minimum: min, maximum: 86_400 } },
  encode: (p) => Uint8Array.from([0x01, ...u32(p.seconds as number)]),
});

export const reboot: CommandSpec = {
  name: 'reboot',
  description: 'Restart the device. Bytes: 0xFF.',
  port: CONTROL_PORT,
  params: {},
  encode: () => Uint8Array.from([0xff]),
};

/** A feature on or off: the opcode, then 1 or 0. */
export const toggle = (name: string, opcode: number, what: string): CommandSpec => ({
  name,
  description: `${what}. Bytes: 0x${opcode.toString(16).toUpperCase()}, 1 or 0.`,
  port: CONTROL_PORT,
  params: { enabled: { type: 'boolean', description: `${what} on or off.` } },
  encode: (p) => Uint8Array.from([opcode, p.enabled ? 1 : 0]),
});
