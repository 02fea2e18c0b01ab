import { JSON_MAX_DEPTH, JSON_MAX_ELEMENTS, JSON_MAX_MEMBERS, jsonShapeProblem } from './json-shape';

const shape = (text: string) => jsonShapeProblem(new TextEncoder().encode(text));
const object = (n: number) => JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [`m${i}`, { a: 1, b: [1, 2] }])));
const nested = (levels: number) => '{"a":'.repeat(levels - 1) + '[]' + '}'.repeat(levels - 1);

describe('jsonShapeProblem (raw bytes, before parsing)', () => {
  it('passes bodies inside the limits, strings with brackets, colons, commas and escapes included', () => {
    expect(shape(object(JSON_MAX_MEMBERS))).toBeNull();
    expect(shape(nested(JSON_MAX_DEPTH))).toBeNull();
    expect(shape(JSON.stringify(Array.from({ length: JSON_MAX_ELEMENTS }, (_, i) => i)))).toBeNull();
    expect(shape(JSON.stringify({ s: '{[:,]}\\"{{{{' + ':'.repeat(10_000), t: ',,,'.repeat(30_000) }))).toBeNull();
    expect(shape(JSON.stringify(Array.from({ length: 1_000 }, () => ({ devEUI: 'x', port: 1, gateways: [{ id: 'g', rssi: -90 }] }))))).toBeNull();
  });

  it('finds the problem at once, whatever follows', () => {
    expect(shape(object(JSON_MAX_MEMBERS + 1))).toBe('wide');
    expect(shape(JSON.stringify({ a: { b: JSON.parse(object(JSON_MAX_MEMBERS + 1)) } }))).toBe('wide');
    expect(shape(nested(JSON_MAX_DEPTH + 1))).toBe('depth');
    expect(shape('['.repeat(200_000) + ']'.repeat(200_000))).toBe('depth');
    expect(shape(JSON.stringify(Array.from({ length: JSON_MAX_ELEMENTS + 1 }, () => 0)))).toBe('long');
  });

  it('leaves text that is not JSON to the parser', () => {
    expect(shape('not json at all')).toBeNull();
    expect(shape('{"unterminated": "')).toBeNull();
  });
});
