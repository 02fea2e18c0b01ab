/** A parameter of a named command. */
export interface CommandParam {
  type: 'integer' | 'boolean';
  description: string;
  minimum?: number;
  maximum?: number;
}

/** A named downlink a device family understands, with its byte layout. */
export interface CommandSpec {
  name: string;
  description: string;
  port: number;
  params: Record<string, CommandParam>;
  encode(params: Record<string, number | boolean>): Uint8Array;
}

export type CommandParamsProblem = { field: string; message: string };

const u32 = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const CONTROL_PORT = 10;

const interval = (min: number): CommandSpec => ({
  name: 'set_interval',
  description: 'Reporting interval. Bytes: 0x01, seconds as uint32 big-endian.',
  port: CONTROL_PORT,
  params: { seconds: { type: 'integer', description: 'Seconds between reports.', minimum: min, maximum: 86_400 } },
  encode: (p) => Uint8Array.from([0x01, ...u32(p.seconds as number)]),
});

const reboot: CommandSpec = {
  name: 'reboot',
  description: 'Restart the device. Bytes: 0xFF.',
  port: CONTROL_PORT,
  params: {},
  encode: () => Uint8Array.from([0xff]),
};

const toggle = (name: string, opcode: number, what: string): CommandSpec => ({
  name,
  description: `${what}. Bytes: 0x${opcode.toString(16).toUpperCase()}, 1 or 0.`,
  port: CONTROL_PORT,
  params: { enabled: { type: 'boolean', description: `${what} on or off.` } },
  encode: (p) => Uint8Array.from([opcode, p.enabled ? 1 : 0]),
});

/** Named commands by decoder (device family) name: each family's encoder, next to its decoder. */
const ENCODERS: Readonly<Record<string, readonly CommandSpec[]>> = {
  'DT Tracker': [
    interval(30),
    { name: 'request_position', description: 'Take and report a GPS fix now. Bytes: 0x02.', port: CONTROL_PORT, params: {}, encode: () => Uint8Array.from([0x02]) },
    toggle('set_gps', 0x03, 'GPS receiver'),
    reboot,
  ],
  'DT Environment': [interval(60), reboot],
  'DT Camera Trap': [
    { name: 'take_photo', description: 'Take a photo now. Bytes: 0x10.', port: CONTROL_PORT, params: {}, encode: () => Uint8Array.from([0x10]) },
    toggle('set_pir', 0x11, 'Motion trigger'),
    toggle('set_night_mode', 0x12, 'Infrared night mode'),
    interval(300),
    reboot,
  ],
  'Cayenne LPP': [
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

export function commandsFor(decoderName: string | null): readonly CommandSpec[] {
  return decoderName !== null && Object.prototype.hasOwnProperty.call(ENCODERS, decoderName) ? ENCODERS[decoderName] : [];
}

/** Checks the parameters against the command's schema: every one present, typed, in range, no other. */
export function checkParams(spec: CommandSpec, params: unknown): Record<string, number | boolean> | CommandParamsProblem {
  const given = params === undefined || params === null ? {} : params;
  if (typeof given !== 'object' || Array.isArray(given)) return { field: 'params', message: 'params must be an object' };
  const values = given as Record<string, unknown>;
  // Own members only: `in` would let __proto__, constructor and toString through as parameters.
  const own = (o: object, key: string) => Object.prototype.hasOwnProperty.call(o, key);
  for (const key of Object.keys(values)) if (!own(spec.params, key)) return { field: `params.${key}`, message: `${spec.name} takes no parameter ${key}` };
  const out: Record<string, number | boolean> = {};
  for (const [key, p] of Object.entries(spec.params)) {
    const v = own(values, key) ? values[key] : undefined;
    if (v === undefined) return { field: `params.${key}`, message: `params.${key} is required` };
    if (p.type === 'boolean') {
      if (typeof v !== 'boolean') return { field: `params.${key}`, message: `params.${key} must be true or false` };
    } else if (typeof v !== 'number' || !Number.isInteger(v) || (p.minimum !== undefined && v < p.minimum) || (p.maximum !== undefined && v > p.maximum)) {
      return { field: `params.${key}`, message: `params.${key} must be an integer within ${p.minimum}..${p.maximum}` };
    }
    out[key] = v as number | boolean;
  }
  return out;
}
