import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CodecSandbox, newCodecModule } from '@dts/platform';
import { readRepositoryCodec, type RepositoryCodec } from './device-repository-codec';

const VENDOR = join(__dirname, '../../../../../test-data/lorawan-devices/vendor');

/** Every codec YAML of test-data/lorawan-devices with the scripts it names, as an account would upload them. */
function repositoryCodecs(): { yamlPath: string; yaml: string; files: Record<string, string> }[] {
  const out = [];
  for (const vendor of readdirSync(VENDOR)) {
    for (const name of readdirSync(join(VENDOR, vendor)).filter((n) => n.endsWith('-codec.yaml'))) {
      const yaml = readFileSync(join(VENDOR, vendor, name), 'utf8');
      const files: Record<string, string> = {};
      for (const [, fileName] of yaml.matchAll(/fileName:\s*(\S+)/g)) files[fileName!] = readFileSync(join(VENDOR, vendor, fileName!), 'utf8');
      out.push({ yamlPath: `${vendor}/${name}`, yaml, files });
    }
  }
  return out;
}

describe('readRepositoryCodec: codecs in The Things Network device repository’s layout (test-data/lorawan-devices)', () => {
  let sandbox: CodecSandbox;
  beforeAll(async () => {
    sandbox = new CodecSandbox(await newCodecModule(), () => newCodecModule());
  });
  afterAll(() => sandbox.close());

  const codecs = repositoryCodecs();
  it('finds the nine codecs of the test data', () => {
    expect(codecs.map((c) => c.yamlPath).sort()).toHaveLength(9);
  });

  it.each(codecs.map((c) => [c.yamlPath, c] as const))('%s: every example passes in the sandbox, as the repository runs it', async (_path, codec) => {
    const read = (await readRepositoryCodec(codec.yaml, codec.files)) as RepositoryCodec;
    expect(Array.isArray(read)).toBe(false);
    expect(read.examples.length).toBeGreaterThan(0);
    const trial = sandbox.trial(read.script, null, read.examples, 10_000);
    expect(trial.problem).toBeNull();
    const failed = read.examples.flatMap((e, i) => (trial.examples[i]?.passed ? [] : [`${e.kind} ${e.description}: ${trial.examples[i]?.message}`]));
    expect(failed).toEqual([]);
  });

  it('counts the examples the README lists: 24 uplink (2 normalized), 18 encoder, 16 downlink decoder', async () => {
    const all = (await Promise.all(codecs.map((c) => readRepositoryCodec(c.yaml, c.files)))).flatMap((read) => (read as RepositoryCodec).examples);
    expect({
      uplink: all.filter((e) => e.kind === 'uplink').length,
      normalized: all.filter((e) => e.normalized_output !== null).length,
      encode: all.filter((e) => e.kind === 'downlink_encode').length,
      decode: all.filter((e) => e.kind === 'downlink_decode').length,
    }).toEqual({ uplink: 24, normalized: 2, encode: 18, decode: 16 });
  });

  it('assembles scripts of different files each in its own scope (Decentlab: uplink and downlink files; Tektelic: decoder and encoder)', async () => {
    const tektelic = codecs.find((c) => c.yamlPath.startsWith('tektelic/'))!;
    const read = (await readRepositoryCodec(tektelic.yaml, tektelic.files)) as RepositoryCodec;
    expect(read.script).toMatch(
      /^\/\/ Assembled from a device-repository codec: decodeUplink from decoder_smart_room_sensor\.js, encodeDownlink from encoder_smart_room_sensor\.js/,
    );
    expect(sandbox.encode('tek', read.script, { ticks: { per_light: { write: 10 } } })).toEqual({ bytes: Uint8Array.from([165, 0, 10]), fPort: 100 });
    const netvox = codecs.find((c) => c.yamlPath.startsWith('netvox/'))!;
    // One file for every section: used as it is.
    expect(((await readRepositoryCodec(netvox.yaml, netvox.files)) as RepositoryCodec).script).toBe(
      readFileSync(join(VENDOR, 'netvox', 'payload/r711_r718a_r718ab_r720a.js'), 'utf8'),
    );
  });

  it('names every problem by where it is', async () => {
    const wind = codecs.find((c) => c.yamlPath.startsWith('example/'))!;
    expect(await readRepositoryCodec(wind.yaml, {})).toEqual([
      { field: 'files.windsensor.js', message: 'uplinkDecoder names windsensor.js, which is not among the files' },
      { field: 'files.windsensor.js', message: 'downlinkEncoder names windsensor.js, which is not among the files' },
      { field: 'files.windsensor.js', message: 'downlinkDecoder names windsensor.js, which is not among the files' },
    ]);
    expect(
      await readRepositoryCodec('uplinkDecoder:\n  fileName: a.js\n  examples:\n    - input: { fPort: 300, bytes: [1, 256] }\n', { 'a.js': 'x', 'b.js': 'y' }),
    ).toEqual([
      { field: 'yaml.uplinkDecoder.examples[0].input.fPort', message: 'fPort must be an integer 0–255' },
      { field: 'yaml.uplinkDecoder.examples[0].input.bytes', message: 'bytes must be a list of at most 256 integers 0–255' },
      { field: 'yaml.uplinkDecoder.examples[0].output', message: 'an example has an output' },
      { field: 'files.b.js', message: 'b.js is not named by the YAML' },
    ]);
    expect(await readRepositoryCodec('downlinkEncoder: {fileName: a.js}\nother: 1\n', { 'a.js': 'x' })).toEqual([
      { field: 'yaml.other', message: 'other is not a section of a codec YAML (uplinkDecoder, downlinkEncoder, downlinkDecoder)' },
      { field: 'yaml.uplinkDecoder', message: 'uplinkDecoder is required' },
    ]);
    expect(await readRepositoryCodec('a: [1, 2', { 'a.js': 'x' })).toEqual([{ field: 'yaml', message: expect.stringMatching(/^the YAML cannot be read: /) }]);
    // Aliases expanding without end are refused by the parser, not expanded.
    const laughs = `a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n`;
    expect(await readRepositoryCodec(laughs, {})).toEqual([{ field: 'yaml', message: expect.stringMatching(/^the YAML cannot be read: /) }]);
  });
});
