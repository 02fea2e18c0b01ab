import { negotiateExportFormat } from './export-format';
import { csvCell, csvLine } from './stream-lines';

describe('negotiateExportFormat', () => {
  it.each([
    [undefined, undefined, 'json'],
    [undefined, '*/*', 'json'],
    [undefined, 'text/html, application/xhtml+xml', 'json'],
    [undefined, 'text/csv', 'csv'],
    [undefined, 'TEXT/CSV; charset=utf-8', 'csv'],
    [undefined, 'application/x-ndjson', 'ndjson'],
    [undefined, 'application/ndjson', 'ndjson'],
    [undefined, 'text/*', 'csv'],
    [undefined, 'application/json, text/csv', 'json'],
    [undefined, 'application/json;q=0.5, text/csv', 'csv'],
    [undefined, 'text/csv;q=0, */*', 'json'],
    [undefined, '*/*, text/csv;q=0.1', 'json'],
    [undefined, 'text/csv;q=0.5, */*;q=0.5', 'csv'],
    [undefined, 'text/csv;q=abc', 'json'],
    ['ndjson', 'text/csv', 'ndjson'],
    ['json', 'application/x-ndjson', 'json'],
  ] as const)('format %p, Accept %p → %p', (format, accept, expected) => {
    expect(negotiateExportFormat(format, accept)).toBe(expected);
  });
});

describe('csvCell', () => {
  it.each([
    [null, ''],
    [undefined, ''],
    [0, '0'],
    [-3.5, '-3.5'],
    [1e21, '1e+21'],
    [Number.NaN, ''],
    [true, 'true'],
    ['plain', 'plain'],
    ['', ''],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\r', '"cr\r"'],
    ['=1+2', "'=1+2"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tx', "'\tx"],
    ['\rx', `"'\rx"`],
    ['=HYPERLINK("u","a,b")', `"'=HYPERLINK(""u"",""a,b"")"`],
    ['a=1', 'a=1'],
    [{ a: 'x,"y"' }, '"{""a"":""x,\\""y\\""""}"'],
    [[1, 'b'], '"[1,""b""]"'],
  ])('%p → %p', (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it('ends a record with CRLF', () => {
    expect(csvLine([1, 'a,b', null])).toBe('1,"a,b",\r\n');
  });
});
