import { normalizeEui } from '../eui';
import { JSON_MAX_DEPTH, JSON_MAX_ELEMENTS, JSON_MAX_MEMBERS, jsonShapeProblem, type ShapeProblem } from '../json-shape';
import { DEVICE_FOLDER_MAX_LENGTH, DEVICE_LABEL_MAX_LENGTH, type DeviceImportFormat } from '../wire/device';
import type { AnyJson } from '../wire/json';

/* One row of a bulk import, whatever format it came in: its checks and what it reads as. */

/** Rows one import may hold (docs/api.md §4). */
export const DEVICE_IMPORT_MAX_ROWS = 10_000;
/** The columns of our CSV, in the template's order. */
export const DEVICE_IMPORT_COLUMNS = ['eui', 'label', 'type', 'decoder', 'network', 'icon', 'folder', 'tags'] as const;
export const DEVICE_TAGS_MAX_BYTES = 4096;
const UTF8 = new TextEncoder();

export type Column = (typeof DEVICE_IMPORT_COLUMNS)[number];
/** A reference by uid, or by name (a decoder's, network's, device type's or icon's). */
export type ImportReference = number | string | null;

/** A row as read, before its references are resolved against the account. */
export interface ImportedDevice {
  row: number;
  eui: string;
  label: string | null;
  type: ImportReference;
  decoder: ImportReference;
  network: ImportReference;
  icon: ImportReference;
  folder: string | null;
  tags: AnyJson;
}

export interface ImportProblem {
  row: number | null;
  field: string;
  message: string;
}

export interface ReadImport {
  format: DeviceImportFormat;
  devices: ImportedDevice[];
  problems: ImportProblem[];
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
export const rowField = (index: number, member: string) => `rows[${index}].${member}`;

export function tooMany(count: number): ImportProblem | null {
  return count > DEVICE_IMPORT_MAX_ROWS
    ? { row: null, field: 'rows', message: `an import has at most ${DEVICE_IMPORT_MAX_ROWS} rows (this one ${count})` }
    : null;
}

/** One row's members, checked; null when its EUI is unusable (the problem is recorded). */
export function readRow(
  index: number,
  cells: Partial<Record<Column, unknown>>,
  problems: ImportProblem[],
  defaultNetwork: number | null,
  euiField = 'eui',
): ImportedDevice | null {
  const row = index + 1;
  const problem = (member: string, message: string) => problems.push({ row, field: rowField(index, member), message: `row ${row}: ${message}` });
  const eui = normalizeEui(cells.eui);
  if (!eui) problem(euiField, cells.eui === undefined || cells.eui === '' ? 'the EUI is missing' : `${show(cells.eui)} is not an EUI (16 hexadecimal digits)`);
  const text = (member: 'label' | 'folder', max: number): string | null => {
    const value = cells[member];
    if (value === undefined || value === null || value === '') return null;
    if (typeof value !== 'string') {
      problem(member, `${member} must be text`);
      return null;
    }
    if (value.length > max) problem(member, `${member} has more than ${max} characters`);
    if (value.includes('\u0000')) problem(member, `${member} contains a NUL character`);
    return value;
  };
  const label = text('label', DEVICE_LABEL_MAX_LENGTH);
  const folder = text('folder', DEVICE_FOLDER_MAX_LENGTH);
  const reference = (member: 'type' | 'decoder' | 'network' | 'icon'): ImportReference => {
    const value = cells[member];
    if (value === undefined || value === null || value === '') return member === 'network' ? defaultNetwork : null;
    if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 2_147_483_647) return value;
    if (typeof value === 'string' && /^\d{1,10}$/.test(value.trim()) && Number(value) >= 1 && Number(value) <= 2_147_483_647) return Number(value);
    if (typeof value === 'string' && value.trim().length > 0 && value.length <= 200) return value.trim();
    problem(member, `${member} must be a uid or a name`);
    return null;
  };
  const type = reference('type');
  const decoder = reference('decoder');
  const network = reference('network');
  const icon = reference('icon');
  const given: unknown = cells.tags ?? null;
  // The cells come from parsed JSON (its shape already judged with the body) or CSV text: whatever
  // they hold is JSON. A cell's JSON is judged by the same limits before it is parsed.
  const read = typeof given === 'string' ? tagsFromText(given) : { tags: given };
  const tags = ('tags' in read ? read.tags : null) as AnyJson;
  if ('shape' in read) problem('tags', `tags ${SHAPE_PROBLEMS[read.shape]}`);
  else if (tags !== null && UTF8.encode(JSON.stringify(tags) ?? '').length > DEVICE_TAGS_MAX_BYTES)
    problem('tags', `tags must be JSON of at most ${DEVICE_TAGS_MAX_BYTES} bytes`);
  return eui ? { row, eui, label, type, decoder, network, icon, folder, tags } : null;
}

const SHAPE_PROBLEMS: Record<ShapeProblem, string> = {
  depth: `are nested deeper than ${JSON_MAX_DEPTH} levels`,
  wide: `hold an object of more than ${JSON_MAX_MEMBERS} members`,
  long: `hold an array of more than ${JSON_MAX_ELEMENTS} elements`,
};

/**
 * A CSV cell's tags: JSON when it starts with `[` or `{`, else a list separated by commas; empty:
 * none. JSON is judged on its text first, with the limits of every JSON body (`jsonShapeProblem`):
 * a cell of 5,000 nested arrays parsed, but JSON.stringify then exhausted the stack (a 500).
 */
function tagsFromText(text: string): { tags: unknown } | { shape: ShapeProblem } {
  const trimmed = text.trim();
  if (trimmed === '') return { tags: null };
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    const shape = jsonShapeProblem(UTF8.encode(trimmed));
    if (shape) return { shape };
    try {
      return { tags: JSON.parse(trimmed) as unknown };
    } catch {
      // not JSON after all: a list
    }
  }
  const list = trimmed
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  return { tags: list.length > 0 ? list : null };
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
