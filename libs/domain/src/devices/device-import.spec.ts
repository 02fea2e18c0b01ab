import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCsv } from './csv';
import { JSON_MAX_DEPTH, JSON_MAX_ELEMENTS, JSON_MAX_MEMBERS } from '../json-shape';
import { DEVICE_IMPORT_TEMPLATE, readDeviceImport } from './device-import';

const EXPORTS = join(__dirname, '../../../../test-data/device-exports');
const read = (name: string) => readFileSync(join(EXPORTS, name), 'utf8');

describe('readDeviceImport', () => {
  it('reads our JSON rows: references by uid or name, the registration’s member names too, tags as given', () => {
    const r = readDeviceImport([
      { eui: '70-b3-d5-7e-d0-00-00-01', label: 'A', decoder: 'Cayenne LPP', network: 3, folder: 'Site', tags: ['x'] },
      { devEUI: '70B3D57ED0000002', decoder_ref: 2, type_ref: '1' },
    ]);
    expect(r).toEqual({
      format: 'rows',
      problems: [],
      devices: [
        { row: 1, eui: '70B3D57ED0000001', label: 'A', type: null, decoder: 'Cayenne LPP', network: 3, icon: null, folder: 'Site', tags: ['x'] },
        { row: 2, eui: '70B3D57ED0000002', label: null, type: 1, decoder: 2, network: null, icon: null, folder: null, tags: null },
      ],
    });
  });

  it('names each problem by its row and member', () => {
    const r = readDeviceImport([
      { eui: 'nope' },
      { eui: '70B3D57ED0000002', label: 'x'.repeat(101), colour: 'red', tags: { t: 'y'.repeat(5000) } },
      'junk',
      { label: 'no eui' },
    ]);
    expect(r.problems).toEqual([
      { row: 1, field: 'rows[0].eui', message: 'row 1: "nope" is not an EUI (16 hexadecimal digits)' },
      { row: 2, field: 'rows[1].colour', message: 'row 2: colour is not a member of a device row' },
      { row: 2, field: 'rows[1].label', message: 'row 2: label has more than 100 characters' },
      { row: 2, field: 'rows[1].tags', message: 'row 2: tags must be JSON of at most 4096 bytes' },
      { row: 3, field: 'rows[2]', message: 'row 3: a row is an object' },
      { row: 4, field: 'rows[3].eui', message: 'row 4: the EUI is missing' },
    ]);
  });

  it('reads CSV: any column order and case, quoted fields, CRLF, tags as a list or JSON; the template reads clean', () => {
    const csv = 'Label,EUI,tags,decoder\r\n"Shed, north",70B3D57ED0000003,"a, b",2\r\nPlain,70B3D57ED0000004,"{""k"":1}",\r\n\r\n';
    const r = readDeviceImport(csv);
    expect(r.problems).toEqual([]);
    expect(r.devices).toEqual([
      { row: 1, eui: '70B3D57ED0000003', label: 'Shed, north', type: null, decoder: 2, network: null, icon: null, folder: null, tags: ['a', 'b'] },
      { row: 2, eui: '70B3D57ED0000004', label: 'Plain', type: null, decoder: null, network: null, icon: null, folder: null, tags: { k: 1 } },
    ]);
    const template = readDeviceImport(DEVICE_IMPORT_TEMPLATE);
    expect(template).toMatchObject({
      format: 'csv',
      problems: [],
      devices: [{ eui: '70B3D57ED0000001', decoder: 'Cayenne LPP', tags: ['indoor', 'greenhouse'] }],
    });
  });

  it('judges JSON in a CSV tags cell by the limits of every JSON body before parsing it (5,000 levels exhausted the stack)', () => {
    const quoted = (json: string) => `"${json.replace(/"/g, '""')}"`;
    const nested = (levels: number) => '{"a":'.repeat(levels - 1) + '[]' + '}'.repeat(levels - 1);
    const wide = JSON.stringify(Object.fromEntries(Array.from({ length: JSON_MAX_MEMBERS + 1 }, (_, i) => [`k${i}`, 0])));
    const csv = [
      'eui,tags',
      `70B3D57ED0000001,${quoted('['.repeat(5_000) + ']'.repeat(5_000))}`,
      `70B3D57ED0000002,${quoted(nested(JSON_MAX_DEPTH + 1))}`,
      `70B3D57ED0000003,${quoted(wide)}`,
      `70B3D57ED0000004,${quoted(JSON.stringify(Array.from({ length: JSON_MAX_ELEMENTS + 1 }, () => 0)))}`,
      `70B3D57ED0000005,${quoted(nested(JSON_MAX_DEPTH))}`,
      '',
    ].join('\n');
    const r = readDeviceImport(csv);
    expect(r.problems).toEqual([
      { row: 1, field: 'rows[0].tags', message: 'row 1: tags are nested deeper than 64 levels' },
      { row: 2, field: 'rows[1].tags', message: 'row 2: tags are nested deeper than 64 levels' },
      { row: 3, field: 'rows[2].tags', message: 'row 3: tags hold an object of more than 500 members' },
      { row: 4, field: 'rows[3].tags', message: 'row 4: tags hold an array of more than 20000 elements' },
    ]);
    // At the limit it is JSON like any other: 64 levels pass.
    expect(r.devices.find((d) => d.row === 5)?.tags).toEqual(JSON.parse(nested(JSON_MAX_DEPTH)));
  });

  it('refuses a CSV whose header has unknown or missing columns, or a row of the wrong width', () => {
    expect(readDeviceImport('eui,colour\n70B3D57ED0000001,red\n').problems).toEqual([
      { row: null, field: 'columns.colour', message: 'colour is not a column of the import (eui, label, type, decoder, network, icon, folder, tags)' },
    ]);
    expect(readDeviceImport('label\nA\n').problems).toEqual([{ row: null, field: 'columns.eui', message: 'the CSV has no eui column' }]);
    expect(readDeviceImport('eui,label\n70B3D57ED0000001\n').problems).toEqual([
      { row: 1, field: 'rows[0]', message: 'row 1: 1 fields where the header has 2' },
    ]);
    expect(readDeviceImport('eui\n"70B3D57ED0000001\n').problems).toEqual([{ row: null, field: 'body', message: 'a quoted field is not closed (line 2)' }]);
    expect(readDeviceImport(`eui\n${'70B3D57ED0000001\n'.repeat(10_001)}`).problems).toEqual([
      { row: null, field: 'rows', message: 'an import has at most 10000 rows' },
    ]);
  });

  it('reads The Things Stack’s `ttn-lw-cli end-devices list` output: name (else device id) as label, application as folder, attributes as tags, network 2', () => {
    const r = readDeviceImport(JSON.parse(read('tts-end-devices-list.json')));
    expect(r).toEqual({
      format: 'tts',
      problems: [],
      devices: [
        {
          row: 1,
          eui: '70B3D57ED005A001',
          label: 'Greenhouse temperature',
          type: null,
          decoder: null,
          network: 2,
          icon: null,
          folder: 'vondelpark-sensors',
          tags: { site: 'greenhouse', installer: 'kim' },
        },
        {
          row: 2,
          eui: '70B3D57ED005A002',
          label: 'pond-level-02',
          type: null,
          decoder: null,
          network: 2,
          icon: null,
          folder: 'vondelpark-sensors',
          tags: null,
        },
      ],
    });
    expect(readDeviceImport(JSON.parse(read('tts-end-devices-api.json'))).devices).toMatchObject([
      { eui: '70B3D57ED005A007', label: 'Gate counter, east entrance', folder: 'park-entrances' },
    ]);
    expect(readDeviceImport([{ ids: { device_id: 'x', dev_eui: 'zz' } }]).problems).toEqual([
      { row: 1, field: 'rows[0].ids.dev_eui', message: 'row 1: "zz" is not an EUI (16 hexadecimal digits)' },
    ]);
  });

  it('reads The Things Stack’s CSV import format (`;`, dev_eui, join_eui; name, else id, as label; other columns ignored)', () => {
    const r = readDeviceImport(read('tts-devices.csv'));
    expect(r.format).toBe('tts-csv');
    expect(r.problems).toEqual([]);
    expect(r.devices.map((d) => [d.eui, d.label, d.network])).toEqual([
      ['70B3D57ED005A011', 'Camera trap, rose garden', 2],
      ['70B3D57ED005A012', 'trap-cam-12', 2],
    ]);
  });

  it('reads ChirpStack v4’s device list and one device: name as label, device profile as folder, tags, network 3', () => {
    const list = readDeviceImport(JSON.parse(read('chirpstack-devices-list.json')));
    expect(list).toEqual({
      format: 'chirpstack',
      problems: [],
      devices: [
        {
          row: 1,
          eui: '0004A30B001C0530',
          label: 'meadow-weather-1',
          type: null,
          decoder: null,
          network: 3,
          icon: null,
          folder: 'Dragino LHT65',
          tags: { zone: 'meadow' },
        },
        { row: 2, eui: '0004A30B001C0531', label: 'meadow-weather-2', type: null, decoder: null, network: 3, icon: null, folder: 'Dragino LHT65', tags: null },
      ],
    });
    expect(readDeviceImport(JSON.parse(read('chirpstack-device.json'))).devices).toMatchObject([
      { eui: '0004A30B001C0540', label: 'pond-side', tags: { zone: 'pond' }, folder: null },
    ]);
  });

  it('refuses a body that is none of these', () => {
    expect(readDeviceImport({ devices: [] }).problems).toEqual([
      { row: null, field: 'body', message: 'an import is a JSON array of devices, CSV, or a The Things Stack or ChirpStack device export' },
    ]);
    expect(readDeviceImport(Array.from({ length: 10_001 }, () => ({ eui: '70B3D57ED0000001' }))).problems[0]).toMatchObject({ field: 'rows' });
  });

  it('parses RFC 4180: doubled quotes, delimiters and newlines inside quotes', () => {
    expect(parseCsv('a,"b ""q"", c","d\ne"\r\n1,2,3')).toEqual({
      rows: [
        ['a', 'b "q", c', 'd\ne'],
        ['1', '2', '3'],
      ],
      truncated: false,
    });
  });
});
