import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { parse } from 'yaml';
import { CODEC_MEMBER_TABLE, measurementsFrom } from './codec-measurements';
import { fromCodecOutput } from './codec-output';
import type { Measurements } from '../wire/measurements';
import { NO_MEASUREMENTS, payloadProblems } from './decoder';

/*
 * The measurement table against the real codecs of test-data/lorawan-devices: each codec runs as
 * The Things Stack runs it (its script in a fresh context, decodeUplink({bytes, fPort}), then
 * normalizeUplink({data}) when it has one), on its own YAML examples' bytes; the output must be the
 * YAML's, and the measurements what the table says (written out here per example).
 */
const VENDOR = join(__dirname, '../../../../test-data/lorawan-devices/vendor');

interface Example {
  description?: string;
  input: { fPort: number; bytes: number[] };
  output: unknown;
  normalizedOutput?: { data: unknown };
}

function codec(yamlPath: string) {
  const file = join(VENDOR, yamlPath);
  const spec = parse(readFileSync(file, 'utf8')) as { uplinkDecoder: { fileName: string; examples: Example[] } };
  const script = readFileSync(join(dirname(file), spec.uplinkDecoder.fileName), 'utf8');
  const run = (input: Example['input']) => {
    // A fresh context per run, as TTS does: the script cannot keep state between uplinks.
    const context: Record<string, unknown> = { input: JSON.parse(JSON.stringify(input)) };
    const output = runInNewContext(`${script}\n;JSON.stringify(decodeUplink(input))`, context) as string;
    const decoded = JSON.parse(output) as { data?: unknown; errors?: unknown[] };
    const hasNormalize = runInNewContext(`${script}\n;typeof normalizeUplink === 'function'`, {}) as boolean;
    const normalized =
      hasNormalize && decoded.data && !decoded.errors?.length
        ? (JSON.parse(runInNewContext(`${script}\n;JSON.stringify(normalizeUplink({data: data}))`, { data: JSON.parse(output).data }) as string) as unknown)
        : undefined;
    return { output: decoded, normalized };
  };
  return { examples: spec.uplinkDecoder.examples, run };
}

const m = (partial: Partial<Measurements>): Measurements => ({ ...NO_MEASUREMENTS, ...partial });

/** Per codec, per example in YAML order: the measurements the table must give (invalid: null). */
const EXPECTED: Record<string, (Measurements | null)[]> = {
  // battery is percent; normalizeUplink puts that percent into TTN's (volts) battery.
  'milesight-iot/em300-th-codec.yaml': [m({ temperature: 20, humidity: 30, battery_percent: 50 })],
  // Nested {value, unit}: °C, %, V.
  'decentlab/dl-sht35-codec.yaml': [
    m({ temperature: 23.787670710307466, humidity: 47.536430914778364, battery_voltage: 3.168 }),
    m({ battery_voltage: 3.168 }),
  ],
  // Temp, Humi, Volt; the configuration answer's BatteryChange/TempChange are no measurements.
  'netvox/r718a-codec.yaml': [m({}), m({ temperature: 25.38, humidity: 68, battery_voltage: 3.6 }), m({}), m({})],
  // TempC_SHT before TempC_DS, BatV in volts, Bat_status no battery.
  'dragino/lht65-codec.yaml': [m({ temperature: 28.29, humidity: 88.6, battery_voltage: 3.062 }), null],
  // Bat_mV 1 is 0.001 V: not a battery voltage, whatever the name says.
  'dragino/lht52-codec.yaml': [m({ firmware_version: '8801' }), null],
  'elsys/ers-codec.yaml': [m({ temperature: 22.6, humidity: 41 })],
  // batteryCapacity "80-100%" is a range, not a value; `voltage` of the battery message is volts.
  'laird/rs1xx-temp-rh-sensor-codec.yaml': [
    m({ temperature: 98.67, humidity: 52.33 }),
    m({}),
    m({ temperature: 107.76, humidity: 61.42 }),
    m({}),
    m({}),
    m({}),
    m({}),
    m({ battery_voltage: 3.01 }),
  ],
  'tektelic/t00061xx-codec.yaml': [m({})],
  // wind.speed and wind.direction: no measurement of the service.
  'example/windsensor-codec.yaml': [m({}), m({}), null],
};

describe('codec output → measurements, with the real codecs of test-data/lorawan-devices', () => {
  for (const [yamlPath, expected] of Object.entries(EXPECTED)) {
    const { examples, run } = codec(yamlPath);
    it(`${yamlPath}: ${examples.length} examples`, () => {
      expect(examples).toHaveLength(expected.length);
      examples.forEach((example, i) => {
        const { output, normalized } = run(example.input);
        // The codec runs as its YAML says it does: otherwise this test would check nothing real.
        expect(output).toEqual(example.output);
        // The YAML lists normalized measurements; a script may return one object or that list.
        const data = (normalized as { data?: unknown } | undefined)?.data;
        if (example.normalizedOutput) expect(Array.isArray(data) ? data : [data]).toEqual(example.normalizedOutput.data);
        const result = fromCodecOutput(output, normalized);
        const want = expected[i];
        expect({ example: i, valid: result.valid, measurements: result.measurements }).toEqual({
          example: i,
          valid: want !== null,
          measurements: want ?? NO_MEASUREMENTS,
        });
      });
    });
  }

  it('the EM300-TH captures (battery 92 %, The Things Stack and ChirpStack) give battery_percent 92, no voltage', () => {
    const { run } = codec('milesight-iot/em300-th-codec.yaml');
    const tts = JSON.parse(readFileSync(join(VENDOR, '../../the-things-stack/captured/milesight-em300-th.tts-industries.payload.json'), 'utf8')) as {
      uplink_message: { f_port: number; frm_payload: string };
    };
    const cs = JSON.parse(readFileSync(join(VENDOR, '../../chirpstack/captured/milesight-em300-th.payload.json'), 'utf8')) as { fPort: number; data: string };
    for (const [fPort, b64] of [
      [tts.uplink_message.f_port, tts.uplink_message.frm_payload],
      [cs.fPort, cs.data],
    ] as const) {
      const { output, normalized } = run({ fPort, bytes: [...Buffer.from(b64, 'base64')] });
      expect(output).toEqual({ data: { battery: 92, temperature: 30.8, humidity: 50.5 } });
      expect(fromCodecOutput(output, normalized).measurements).toEqual(m({ temperature: 30.8, humidity: 50.5, battery_percent: 92 }));
      // Without its normalized payload the table reads the same.
      expect(measurementsFrom(output.data as Record<string, unknown>)).toEqual(m({ temperature: 30.8, humidity: 50.5, battery_percent: 92 }));
    }
  });
});

describe('codec output → measurements: the table’s rules', () => {
  it('reads an unqualified battery by its value: millivolts from 500, integer percent, fractional volts', () => {
    expect(measurementsFrom({ battery: 3600 })).toEqual(m({ battery_voltage: 3.6 }));
    expect(measurementsFrom({ battery: 92 })).toEqual(m({ battery_percent: 92 }));
    expect(measurementsFrom({ battery: 3.3 })).toEqual(m({ battery_voltage: 3.3 }));
    expect(measurementsFrom({ battery: 87.5 })).toEqual(m({ battery_percent: 87.5 }));
    expect(measurementsFrom({ battery: 150 })).toEqual(m({}));
    expect(measurementsFrom({ battery: -1 })).toEqual(m({}));
  });

  it('follows units: a name’s suffix, a nested unit over the name, °F refused rather than guessed', () => {
    expect(measurementsFrom({ bat_mV: 3012, battery_percent: 71, vbat: 3.1 })).toEqual(m({ battery_voltage: 3.012, battery_percent: 71 }));
    expect(measurementsFrom({ battery_v: 3.3 })).toEqual(m({ battery_voltage: 3.3 }));
    expect(measurementsFrom({ battery_level: 40 })).toEqual(m({ battery_percent: 40 }));
    expect(measurementsFrom({ battery: { value: 3012, unit: 'mV' } })).toEqual(m({ battery_voltage: 3.012 }));
    expect(measurementsFrom({ battery: { value: 80, unit: '%' } })).toEqual(m({ battery_percent: 80 }));
    expect(measurementsFrom({ temperature: { value: 70, unit: '°F' }, temp: 21 })).toEqual(m({ temperature: 21 }));
    expect(measurementsFrom({ voltage: 3300 })).toEqual(m({ battery_voltage: 3.3 }));
  });

  it('reads Netvox’s low-battery text "3.2(low battery)" as its number, never a range like "80-100%"', () => {
    expect(measurementsFrom({ Volt: '3.2(low battery)' })).toEqual(m({ battery_voltage: 3.2 }));
    expect(measurementsFrom({ batteryCapacity: '80-100%', battery: '80-100%' })).toEqual(m({}));
  });

  it('refuses values outside their measurement’s range (a missing probe’s 327.67 °C, humidity 120)', () => {
    expect(measurementsFrom({ TempC_DS: 327.67, humidity: 120 })).toEqual(m({}));
    expect(measurementsFrom({ TempC_DS: 327.67, TempC_SHT: 21 })).toEqual(m({ temperature: 21 }));
  });

  it('reads TTN’s normalized payload first, and a position only with both coordinates', () => {
    expect(measurementsFrom({ t: 1 }, { data: { air: { temperature: 19.5, relativeHumidity: 40 }, battery: 3.05 } })).toEqual(
      m({ temperature: 19.5, humidity: 40, battery_voltage: 3.05 }),
    );
    expect(measurementsFrom({ temperature: 30 }, { data: [{ air: { temperature: 19.5 } }] })).toEqual(m({ temperature: 19.5 }));
    expect(measurementsFrom({ latitude: 52.1, longitude: 5.1, altitude: 3 })).toEqual(m({ lat: 52.1, lon: 5.1, alt: 3 }));
    expect(measurementsFrom({ lat: 52.1, alt: 3 })).toEqual(m({}));
    expect(measurementsFrom({ lat: 95, lon: 5 })).toEqual(m({}));
    expect(measurementsFrom({}, 'junk')).toEqual(m({}));
  });

  it('names each folded name once in the table', () => {
    const names = CODEC_MEMBER_TABLE.flatMap((row) => row.names);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(n).toMatch(/^[a-z0-9]+$/);
  });
});

describe('codec errors and warnings as text', () => {
  it('shows objects as their JSON, even one whose toString is not a function (found by the fuzz, seed 577656132)', () => {
    const result = fromCodecOutput({ errors: [{ toString: 0 }, 'bad length'] });
    expect(result.valid).toBe(false);
    expect(result.error).toBe('{"toString":0}; bad length');
    expect(result.errors).toEqual(['{"toString":0}', 'bad length']);
    const warned = fromCodecOutput({ data: { t: 1 }, warnings: [{ valueOf: 1 }, 3] });
    expect(warned.warnings).toEqual(['{"valueOf":1}', '3']);
    // Kept beside the data (payload_warnings), not inside it.
    expect(warned.decoded).toEqual({ t: 1 });
  });
});

describe('what an uplink keeps of its decoding (payloadProblems)', () => {
  it('keeps a codec’s lists, or a decoder’s one reason; null for none', () => {
    expect(payloadProblems(fromCodecOutput({ data: { t: 1 }, warnings: [], errors: [] }))).toEqual({ errors: null, warnings: null });
    expect(payloadProblems(fromCodecOutput({ data: { t: 1 }, warnings: ['low battery'] }))).toEqual({ errors: null, warnings: ['low battery'] });
    expect(payloadProblems(fromCodecOutput({ errors: ['unknown port 9', 'bad length'], warnings: ['w'] }))).toEqual({
      errors: ['unknown port 9', 'bad length'],
      warnings: ['w'],
    });
    expect(payloadProblems({ decoded: {}, valid: false, error: 'no valid GPS fix', measurements: NO_MEASUREMENTS })).toEqual({
      errors: ['no valid GPS fix'],
      warnings: null,
    });
  });

  it('keeps at most 20 of each, each at most 500 characters and storable (a cut never leaves half a surrogate pair)', () => {
    const many = Array.from({ length: 50 }, (_, i) => `w${i}`);
    const long = `${'x'.repeat(499)}😀tail`;
    const kept = payloadProblems(fromCodecOutput({ data: {}, warnings: many, errors: [] }));
    expect(kept.warnings).toHaveLength(20);
    const cut = payloadProblems(fromCodecOutput({ errors: [long] })).errors!;
    expect(cut[0]).toHaveLength(500);
    expect(cut[0]!.endsWith('\ufffd')).toBe(true);
  });
});
