import { checkParams } from './commands';
import { commandsFor } from './registry';

const hex = (b: Uint8Array | object) => (b instanceof Uint8Array ? Buffer.from(b).toString('hex') : b);

/** The family's command of that name; a family without it fails the test naming both. */
const command = (family: string, name: string) => {
  const found = commandsFor(family).find((c) => c.name === name);
  if (!found) throw new Error(`${family} has no command ${name}`);
  return found;
};

describe('named commands', () => {
  it('encodes the tracker family’s commands (vectors)', () => {
    expect(hex(command('DT Tracker', 'set_interval').encode({ seconds: 3600 }))).toBe('0100000e10');
    expect(hex(command('DT Tracker', 'request_position').encode({}))).toBe('02');
    expect(hex(command('DT Tracker', 'set_gps').encode({ enabled: false }))).toBe('0300');
    expect(hex(command('DT Tracker', 'reboot').encode({}))).toBe('ff');
    expect(command('DT Tracker', 'set_interval').port).toBe(10);
  });

  it('encodes the camera trap and LPP commands', () => {
    expect(hex(command('DT Camera Trap', 'take_photo').encode({}))).toBe('10');
    expect(hex(command('DT Camera Trap', 'set_pir').encode({ enabled: true }))).toBe('1101');
    const lpp = command('Cayenne LPP', 'set_digital_output');
    expect(hex(lpp.encode({ channel: 3, value: 1 }))).toBe('030101');
  });

  it('offers nothing for a family without an encoder', () => {
    expect(commandsFor('raw')).toEqual([]);
    expect(commandsFor(null)).toEqual([]);
    expect(commandsFor('constructor')).toEqual([]);
  });

  it('checks parameters against the schema', () => {
    const setInterval = command('DT Tracker', 'set_interval');
    expect(checkParams(setInterval, { seconds: 60 })).toEqual({ seconds: 60 });
    expect(checkParams(setInterval, {})).toMatchObject({ field: 'params.seconds' });
    expect(checkParams(setInterval, { seconds: 10 })).toMatchObject({ field: 'params.seconds' });
    expect(checkParams(setInterval, { seconds: 60.5 })).toMatchObject({ field: 'params.seconds' });
    expect(checkParams(setInterval, { seconds: 60, extra: 1 })).toMatchObject({ field: 'params.extra' });
    expect(checkParams(setInterval, [1])).toMatchObject({ field: 'params' });
  });
});
