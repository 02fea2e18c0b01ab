import { type CodecExample, type CodecExampleKind, CODEC_EXAMPLES_MAX, EXAMPLE_MAX_BYTES } from '@dts/domain';
import { CODEC_LIMITS } from '@dts/platform';

/** A codec YAML of the device repository is a few kilobytes (Laird's, the longest seen, 12 KB). */
export const CODEC_YAML_MAX_BYTES = 128 * 1024;
/** Scripts one codec YAML may name (uplink decoder, downlink encoder and decoder, and a spare). */
export const CODEC_FILES_MAX = 4;

const SECTIONS: readonly { key: string; kind: CodecExampleKind; functions: string[] }[] = [
  { key: 'uplinkDecoder', kind: 'uplink', functions: ['decodeUplink', 'normalizeUplink'] },
  { key: 'downlinkEncoder', kind: 'downlink_encode', functions: ['encodeDownlink'] },
  { key: 'downlinkDecoder', kind: 'downlink_decode', functions: ['decodeDownlink'] },
];

export interface FieldProblem {
  field: string;
  message: string;
}

export interface RepositoryCodec {
  script: string;
  examples: CodecExample[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads a codec in The Things Network device repository's layout: the codec YAML (`uplinkDecoder`
 * required, `downlinkEncoder` and `downlinkDecoder` optional, each naming its script by `fileName`
 * and listing `examples`) and the scripts it names (`files`, by those names). One script serves
 * them all when they name the same file; scripts of different files are each run in a scope of
 * their own, so that their top-level names cannot collide, and the functions each section names
 * are taken from its own file. Problems are named by where they are (`yaml.uplinkDecoder.examples[2].input.bytes`).
 */
export async function readRepositoryCodec(yamlText: string, files: Record<string, string>): Promise<RepositoryCodec | FieldProblem[]> {
  // The YAML parser is loaded at the first import, not at start-up (docs/benchmarks.md, figure 15).
  const { parse } = await import('yaml');
  let doc: unknown;
  try {
    // Aliases are expanded by the parser: a few, never the exponential "billion laughs".
    doc = parse(yamlText, { maxAliasCount: 50, uniqueKeys: true, prettyErrors: false });
  } catch (error) {
    return [{ field: 'yaml', message: `the YAML cannot be read: ${(error as Error).message.split('\n')[0]?.slice(0, 200)}` }];
  }
  if (!isObject(doc)) return [{ field: 'yaml', message: 'the codec YAML must be a mapping with uplinkDecoder' }];
  const problems: FieldProblem[] = [];
  const roles: { fileName: string; functions: string[] }[] = [];
  const examples: CodecExample[] = [];
  for (const key of Object.keys(doc)) {
    if (!SECTIONS.some((s) => s.key === key))
      problems.push({ field: `yaml.${key}`, message: `${key} is not a section of a codec YAML (uplinkDecoder, downlinkEncoder, downlinkDecoder)` });
  }
  for (const section of SECTIONS) {
    const value = doc[section.key];
    const at = `yaml.${section.key}`;
    if (value === undefined || value === null) {
      if (section.kind === 'uplink') problems.push({ field: at, message: 'uplinkDecoder is required' });
      continue;
    }
    if (!isObject(value)) {
      problems.push({ field: at, message: `${section.key} must be a mapping with fileName` });
      continue;
    }
    const fileName = value.fileName;
    if (typeof fileName !== 'string' || fileName.length === 0 || fileName.length > 200) {
      problems.push({ field: `${at}.fileName`, message: 'fileName must name the script (at most 200 characters)' });
      continue;
    }
    if (typeof files[fileName] !== 'string')
      problems.push({ field: `files.${fileName}`, message: `${section.key} names ${fileName}, which is not among the files` });
    else roles.push({ fileName, functions: section.functions });
    const list = value.examples;
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list)) {
      problems.push({ field: `${at}.examples`, message: 'examples must be a list' });
      continue;
    }
    for (const [i, example] of list.entries()) {
      const read = readExample(section.kind, example, `${at}.examples[${i}]`, i);
      if (Array.isArray(read)) problems.push(...read);
      else examples.push(read);
    }
  }
  if (examples.length > CODEC_EXAMPLES_MAX)
    problems.push({ field: 'yaml', message: `a codec has at most ${CODEC_EXAMPLES_MAX} examples (this one ${examples.length})` });
  for (const name of Object.keys(files)) {
    if (!roles.some((r) => r.fileName === name) && !problems.some((p) => p.field === `files.${name}`))
      problems.push({ field: `files.${name}`, message: `${name} is not named by the YAML` });
  }
  if (problems.length > 0) return problems;
  const script = assemble(roles, files);
  if (Buffer.byteLength(script) > CODEC_LIMITS.maxScriptBytes)
    return [{ field: 'files', message: `the scripts together exceed ${CODEC_LIMITS.maxScriptBytes} bytes` }];
  return { script, examples };
}

function readExample(kind: CodecExampleKind, example: unknown, at: string, index: number): CodecExample | FieldProblem[] {
  if (!isObject(example)) return [{ field: at, message: 'an example must be a mapping with input and output' }];
  const problems: FieldProblem[] = [];
  const description = example.description === undefined ? `Example ${index + 1}` : example.description;
  if (typeof description !== 'string' || description.length > 500)
    problems.push({ field: `${at}.description`, message: 'description must be text of at most 500 characters' });
  const input = example.input;
  let readInput: CodecExample['input'] = {};
  if (!isObject(input)) problems.push({ field: `${at}.input`, message: 'input must be a mapping' });
  else if (kind === 'downlink_encode') {
    if (!('data' in input)) problems.push({ field: `${at}.input.data`, message: 'an encoder example’s input has data' });
    readInput = { data: input.data };
  } else {
    const { fPort, bytes } = input;
    if (typeof fPort !== 'number' || !Number.isInteger(fPort) || fPort < 0 || fPort > 255)
      problems.push({ field: `${at}.input.fPort`, message: 'fPort must be an integer 0–255' });
    if (!Array.isArray(bytes) || bytes.length > EXAMPLE_MAX_BYTES || !bytes.every((b) => Number.isInteger(b) && (b as number) >= 0 && (b as number) <= 255))
      problems.push({ field: `${at}.input.bytes`, message: `bytes must be a list of at most ${EXAMPLE_MAX_BYTES} integers 0–255` });
    readInput = { fPort: fPort as number, bytes: bytes as number[] };
  }
  if (!('output' in example) || example.output === undefined) problems.push({ field: `${at}.output`, message: 'an example has an output' });
  const normalized = example.normalizedOutput;
  if (normalized !== undefined && kind !== 'uplink')
    problems.push({ field: `${at}.normalizedOutput`, message: 'only uplink examples have a normalizedOutput' });
  for (const key of Object.keys(example)) {
    if (!['description', 'input', 'output', 'normalizedOutput'].includes(key))
      problems.push({ field: `${at}.${key}`, message: `${key} is not a member of an example` });
  }
  if (problems.length > 0) return problems;
  return { kind, description: description as string, input: readInput, output: example.output ?? null, normalized_output: normalized ?? null };
}

/** One script for every role: the file itself when all roles name it, else each file in its own scope. */
function assemble(roles: readonly { fileName: string; functions: string[] }[], files: Record<string, string>): string {
  const names = [...new Set(roles.map((r) => r.fileName))];
  const [only] = names;
  if (names.length === 1 && only !== undefined) return files[only] ?? '';
  const lines = [
    `// Assembled from a device-repository codec: ${roles.map((r) => `${r.functions[0]} from ${r.fileName}`).join(', ')}.`,
    '// Each file runs in a scope of its own; the functions each role names are taken from its file.',
    'var decodeUplink, normalizeUplink, encodeDownlink, decodeDownlink;',
    'var __files = [];',
  ];
  for (const name of names) {
    lines.push(
      `// ---- ${name.replace(/[\r\n]/g, ' ')}`,
      '__files.push((function () {',
      files[name] ?? '',
      ';return { decodeUplink: typeof decodeUplink === "function" ? decodeUplink : undefined, normalizeUplink: typeof normalizeUplink === "function" ? normalizeUplink : undefined, encodeDownlink: typeof encodeDownlink === "function" ? encodeDownlink : undefined, decodeDownlink: typeof decodeDownlink === "function" ? decodeDownlink : undefined };',
      '})());',
    );
  }
  for (const role of roles) {
    const index = names.indexOf(role.fileName);
    for (const fn of role.functions) lines.push(`if (__files[${index}].${fn}) ${fn} = __files[${index}].${fn};`);
  }
  return lines.join('\n') + '\n';
}
