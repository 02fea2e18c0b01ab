import { type DeviceImportFormat } from '../wire/device';
import { parseCsv } from './csv';
import {
  type Column,
  DEVICE_IMPORT_COLUMNS,
  DEVICE_IMPORT_MAX_ROWS,
  type ImportedDevice,
  type ImportProblem,
  isObject,
  type ReadImport,
  readRow,
  rowField,
  tooMany,
} from './device-import-row';

/** The template a person fills in: the header and one example row. */
export const DEVICE_IMPORT_TEMPLATE = `${DEVICE_IMPORT_COLUMNS.join(',')}\n70B3D57ED0000001,Greenhouse sensor,,Cayenne LPP,,,Site A,"indoor, greenhouse"\n`;
/** The Things Stack's network uid and ChirpStack's (docs/api.md §12): their exports' devices are on them. */
const TTS_NETWORK = 2;
const CHIRPSTACK_NETWORK = 3;

/**
 * Reads a bulk import: our rows (a JSON array of objects, or CSV with a header line), or another
 * network server's device export — The Things Stack's end devices (`ttn-lw-cli end-devices list`:
 * an array of EndDevice objects; its API's `{end_devices}`; its CSV import format, `;`-separated
 * with `dev_eui`) or ChirpStack v4's (`{totalCount, result}` of its device list, or a list of its
 * devices). Each row is checked on its own (EUI, label, folder, tags, reference forms); references
 * are resolved against the account, and EUIs against the database, by the caller.
 */
export function readDeviceImport(body: unknown): ReadImport {
  if (typeof body === 'string') return readCsv(body);
  if (Array.isArray(body)) {
    const first = body[0];
    if (isObject(first) && isObject(first.ids)) return fromTts(body, 'rows');
    if (isObject(first) && ('devEui' in first || isObject(first.device))) return fromChirpstack(body, 'rows');
    return fromRows(body);
  }
  if (isObject(body)) {
    if (Array.isArray(body.end_devices)) return fromTts(body.end_devices, 'end_devices');
    if (isObject(body.ids)) return fromTts([body], 'rows');
    if (Array.isArray(body.result)) return fromChirpstack(body.result, 'result');
    if (isObject(body.device)) return fromChirpstack([body], 'rows');
  }
  return {
    format: 'rows',
    devices: [],
    problems: [{ row: null, field: 'body', message: 'an import is a JSON array of devices, CSV, or a The Things Stack or ChirpStack device export' }],
  };
}

/** Our JSON rows: the CSV's members, or the registration's names (`type_ref`…). */
function fromRows(items: unknown[]): ReadImport {
  const problems: ImportProblem[] = [];
  const devices: ImportedDevice[] = [];
  const many = tooMany(items.length);
  if (many) return { format: 'rows', devices, problems: [many] };
  const aliases: Record<string, Column> = { devEUI: 'eui', dev_eui: 'eui', type_ref: 'type', decoder_ref: 'decoder', network_ref: 'network', icon_ref: 'icon' };
  items.forEach((item, index) => {
    if (!isObject(item)) {
      problems.push({ row: index + 1, field: `rows[${index}]`, message: `row ${index + 1}: a row is an object` });
      return;
    }
    const cells: Partial<Record<Column, unknown>> = {};
    for (const [key, value] of Object.entries(item)) {
      const column = (DEVICE_IMPORT_COLUMNS as readonly string[]).includes(key) ? (key as Column) : aliases[key];
      if (!column) problems.push({ row: index + 1, field: rowField(index, key), message: `row ${index + 1}: ${key} is not a member of a device row` });
      else cells[column] = value;
    }
    const device = readRow(index, cells, problems, null);
    if (device) devices.push(device);
  });
  return { format: 'rows', devices, problems };
}

/**
 * The Things Stack's EndDevice objects: `ids.dev_eui`, `name` (else `ids.device_id`) as the label,
 * `attributes` as tags, the application as the folder; on The Things Stack's network.
 */
function fromTts(items: unknown[], at: string): ReadImport {
  const problems: ImportProblem[] = [];
  const devices: ImportedDevice[] = [];
  const many = tooMany(items.length);
  if (many) return { format: 'tts', devices, problems: [many] };
  items.forEach((item, index) => {
    const ids = isObject(item) && isObject(item.ids) ? item.ids : null;
    if (!isObject(item) || !ids) {
      problems.push({ row: index + 1, field: `rows[${index}]`, message: `row ${index + 1}: an end device of ${at} has ids` });
      return;
    }
    const application = isObject(ids.application_ids) && typeof ids.application_ids.application_id === 'string' ? ids.application_ids.application_id : null;
    const name = typeof item.name === 'string' && item.name !== '' ? item.name : typeof ids.device_id === 'string' ? ids.device_id : null;
    const attributes = isObject(item.attributes) && Object.keys(item.attributes).length > 0 ? item.attributes : null;
    const device = readRow(index, { eui: ids.dev_eui, label: name, folder: application, tags: attributes }, problems, TTS_NETWORK, 'ids.dev_eui');
    if (device) devices.push(device);
  });
  return { format: 'tts', devices, problems };
}

/**
 * ChirpStack v4's devices: `devEui`, `name` as the label, `tags` as tags, the device profile's
 * name as the folder (a list item has it; a device object `{device: {...}}` has only its id);
 * on ChirpStack's network.
 */
function fromChirpstack(items: unknown[], at: string): ReadImport {
  const problems: ImportProblem[] = [];
  const devices: ImportedDevice[] = [];
  const many = tooMany(items.length);
  if (many) return { format: 'chirpstack', devices, problems: [many] };
  items.forEach((item, index) => {
    const device = isObject(item) && isObject(item.device) ? item.device : item;
    if (!isObject(device) || !('devEui' in device)) {
      problems.push({ row: index + 1, field: `rows[${index}]`, message: `row ${index + 1}: a device of ${at} has devEui` });
      return;
    }
    const tags = isObject(device.tags) && Object.keys(device.tags).length > 0 ? device.tags : null;
    const folder = typeof device.deviceProfileName === 'string' && device.deviceProfileName !== '' ? device.deviceProfileName : null;
    const read = readRow(
      index,
      { eui: device.devEui, label: typeof device.name === 'string' ? device.name : null, folder, tags },
      problems,
      CHIRPSTACK_NETWORK,
      'devEui',
    );
    if (read) devices.push(read);
  });
  return { format: 'chirpstack', devices, problems };
}

/**
 * CSV (RFC 4180: quotes, doubled quotes, CRLF or LF, a header line). Our columns by name in any
 * order and case; or The Things Stack's CSV import format (`;`-separated, `dev_eui` and `join_eui`
 * among its columns: `name`, else `id`, is the label; its other columns are ignored, as it does).
 */
function readCsv(text: string): ReadImport {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const firstLine = source.slice(0, source.search(/\r?\n|$/));
  const delimiter = firstLine.includes(';') && !firstLine.includes(',') ? ';' : ',';
  const parsed = parseCsv(source, delimiter, DEVICE_IMPORT_MAX_ROWS + 1);
  if ('error' in parsed) return { format: 'csv', devices: [], problems: [{ row: null, field: 'body', message: parsed.error }] };
  const [header, ...lines] = parsed.rows;
  if (!header || header.every((h) => h.trim() === ''))
    return { format: 'csv', devices: [], problems: [{ row: null, field: 'body', message: 'the CSV has no header line' }] };
  const names = header.map((h) => h.trim().toLowerCase());
  const tts = names.includes('dev_eui') && (names.includes('join_eui') || names.includes('app_eui'));
  const format: DeviceImportFormat = tts ? 'tts-csv' : 'csv';
  const problems: ImportProblem[] = [];
  const devices: ImportedDevice[] = [];
  if (parsed.truncated || lines.length > DEVICE_IMPORT_MAX_ROWS)
    return { format, devices, problems: [{ row: null, field: 'rows', message: `an import has at most ${DEVICE_IMPORT_MAX_ROWS} rows` }] };
  const aliases: Record<string, Column> = tts ? { dev_eui: 'eui', name: 'label' } : { deveui: 'eui', dev_eui: 'eui', name: 'label' };
  const columns = names.map((name) => ((DEVICE_IMPORT_COLUMNS as readonly string[]).includes(name) && !tts ? (name as Column) : (aliases[name] ?? null)));
  if (!tts) {
    names.forEach((name, i) => {
      if (columns[i] === null)
        problems.push({
          row: null,
          field: `columns.${name || i + 1}`,
          message: `${name || `column ${i + 1}`} is not a column of the import (${DEVICE_IMPORT_COLUMNS.join(', ')})`,
        });
    });
    const seen = new Set<string>();
    for (const c of columns) {
      if (c && seen.has(c)) problems.push({ row: null, field: `columns.${c}`, message: `${c} is a column twice` });
      if (c) seen.add(c);
    }
  }
  if (!columns.includes('eui')) problems.push({ row: null, field: 'columns.eui', message: `the CSV has no ${tts ? 'dev_eui' : 'eui'} column` });
  if (problems.length > 0) return { format, devices, problems };
  const idColumn = names.indexOf('id');
  lines.forEach((cells, index) => {
    if (cells.length === 1 && cells[0] === '') return; // a blank line
    if (cells.length !== header.length) {
      problems.push({ row: index + 1, field: `rows[${index}]`, message: `row ${index + 1}: ${cells.length} fields where the header has ${header.length}` });
      return;
    }
    const row: Partial<Record<Column, unknown>> = {};
    columns.forEach((column, i) => {
      if (column) row[column] = cells[i];
    });
    if (tts && (row.label === undefined || row.label === '') && idColumn >= 0) row.label = cells[idColumn];
    const device = readRow(index, row, problems, tts ? TTS_NETWORK : null, tts ? 'dev_eui' : 'eui');
    if (device) devices.push(device);
  });
  return { format, devices, problems };
}
