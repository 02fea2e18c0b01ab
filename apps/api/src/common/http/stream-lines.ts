import type { Response } from 'express';
import { streamRows } from './stream-rows';

export interface LinesHead {
  /** Content-Type without parameters; UTF-8 is added. */
  contentType: string;
  /** Offered name of the download (Content-Disposition: attachment). */
  filename: string;
  /** Written before the first row (a CSV header line). */
  preamble?: string;
}

/**
 * Writes rows as lines of text (CSV, NDJSON) streamed from `batches` exactly as `streamEnvelope`
 * streams the JSON form (see streamRows); a failure after the first batch can only cut the
 * connection, which the client sees as a truncated download.
 */
export function streamLines<T>(res: Response, head: LinesHead, batches: AsyncIterable<T[]>, line: (row: T) => string): Promise<void> {
  return streamRows(res, batches, {
    head: (r) => {
      r.status(200).setHeader('Content-Type', `${head.contentType}; charset=utf-8`);
      r.setHeader('Content-Disposition', `attachment; filename="${head.filename}"`);
    },
    preamble: head.preamble ?? '',
    line: (row) => line(row),
    epilogue: '',
  });
}

/** A cell starting with one of these is a formula to a spreadsheet (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One CSV cell (RFC 4180). Numbers and booleans are written as they are, so -3.5 stays a number;
 * objects and arrays as their JSON text; null as an empty cell. Text that a spreadsheet would run
 * as a formula gets a leading `'`, which spreadsheets show as text and do not evaluate.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  let text = typeof value === 'string' ? value : JSON.stringify(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV record with its CRLF (RFC 4180). */
export function csvLine(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
