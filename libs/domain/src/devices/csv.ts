/** RFC 4180 records; stops after `maxRows` (truncated). */
export function parseCsv(text: string, delimiter = ',', maxRows = Infinity): { rows: string[][]; truncated: boolean } | { error: string } {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let i = 0;
  const endRow = () => {
    row.push(cell);
    rows.push(row);
    row = [];
    cell = '';
  };
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      cell += c;
      i++;
      continue;
    }
    if (c === '"' && cell === '') {
      quoted = true;
      i++;
    } else if (c === delimiter) {
      row.push(cell);
      cell = '';
      i++;
    } else if (c === '\r' && text[i + 1] === '\n') {
      endRow();
      i += 2;
    } else if (c === '\n') {
      endRow();
      i++;
    } else {
      cell += c;
      i++;
    }
    if (rows.length > maxRows) return { rows, truncated: true };
  }
  if (quoted) return { error: `a quoted field is not closed (line ${rows.length + 1})` };
  if (cell !== '' || row.length > 0) endRow();
  return { rows, truncated: false };
}
