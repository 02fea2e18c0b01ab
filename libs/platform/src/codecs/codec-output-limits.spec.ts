import { DECODED_MAX_BYTES, DECODED_MAX_DEPTH, decodedTextProblem } from './codec-output-limits';

const nested = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

describe('decoded output limits', () => {
  it('accepts ordinary output, including escapes, brackets inside strings and surrogate pairs', () => {
    expect(decodedTextProblem(JSON.stringify({ data: { t: 21.5, s: 'a{[b"\\', e: '😀', esc: '\ud83d\ude00' } }))).toBeNull();
    expect(decodedTextProblem('{"s":"\\ud83d\\ude00"}')).toBeNull();
    expect(decodedTextProblem(nested(DECODED_MAX_DEPTH))).toBeNull();
  });

  it('refuses output over the size limit, counted in bytes', () => {
    expect(decodedTextProblem(JSON.stringify({ s: 'x'.repeat(DECODED_MAX_BYTES) }))).toMatch(/exceeds 64 KiB/);
    expect(decodedTextProblem(JSON.stringify({ s: 'é'.repeat(DECODED_MAX_BYTES / 2) }))).toMatch(/exceeds/);
  });

  it('refuses nesting past the depth limit, 5,000 levels without recursion', () => {
    expect(decodedTextProblem(nested(DECODED_MAX_DEPTH + 1))).toMatch(/deeper than 32/);
    expect(decodedTextProblem('['.repeat(5_000) + ']'.repeat(5_000))).toMatch(/deeper/);
  });

  it('refuses what jsonb cannot store: NUL and lone surrogates, escaped or raw', () => {
    expect(decodedTextProblem('{"s":"a\\u0000b"}')).toMatch(/NUL/);
    expect(decodedTextProblem('{"a\\u0000":1}')).toMatch(/NUL/);
    expect(decodedTextProblem('{"s":"\\ud800"}')).toMatch(/surrogate/);
    expect(decodedTextProblem('{"s":"\\udc00x"}')).toMatch(/surrogate/);
    expect(decodedTextProblem('{"s":"\ud800x"}')).toMatch(/surrogate/);
    expect(decodedTextProblem(JSON.stringify({ s: '\ud800' }))).toMatch(/surrogate/);
  });
});
