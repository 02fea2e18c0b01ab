/**
 * A streamed answer as a plain value: what to send, not how. Services return one; the controller
 * hands it to sendStream (send-stream.ts), the one place that writes it to the HTTP response.
 */
export interface StreamBody<T> {
  /** Content-Type without parameters. */
  contentType: string;
  /** Offered name of a download (Content-Disposition: attachment); null for an inline answer. */
  filename: string | null;
  /** Request headers the answer depends on (the Vary header). */
  vary: string | null;
  /** Headers of the answer beyond its type, download name and Vary (a history's retention, docs/api.md §5). */
  headers?: Readonly<Record<string, string>>;
  /**
   * Read in batches: memory holds a batch or two (the reads repository reads one ahead) whatever the
   * size of the whole. Each batch is handed over: the writer takes the rows out of it as it writes them.
   */
  rows: AsyncIterable<T[]>;
  /** Written before the first row. */
  preamble: string;
  /** One row's text; `index` counts rows from 0 over the whole stream. (A method: any body is a StreamBody<unknown>.) */
  line(row: T, index: number): string;
  /** Written after the last row. */
  epilogue: string;
  /** How many rows there are, when that is known before they are read (a cached history). */
  size?: number;
}

/** The envelope (docs/api.md §1) with `data` as an array streamed from `rows`. */
export function envelopeBody<T>(meta: unknown, rows: AsyncIterable<T[]>, render: (row: T) => unknown, vary: string | null = null): StreamBody<T> {
  return envelopeOfJson(meta, rows, (row) => JSON.stringify(render(row)), vary);
}

/** The envelope around rows that are JSON text already (a cached rendering). */
export function envelopeOfJson<T>(meta: unknown, rows: AsyncIterable<T[]>, json: (row: T) => string, vary: string | null = null): StreamBody<T> {
  return {
    contentType: 'application/json',
    filename: null,
    vary,
    rows,
    preamble: `{"errors":[],"debug":[],"meta":${JSON.stringify(meta)},"messages":[],"data":[`,
    line: (row, index) => (index === 0 ? '' : ',') + json(row),
    epilogue: '],"success":true}',
  };
}

export interface LinesHead {
  /** Content-Type without parameters; UTF-8 is added. */
  contentType: string;
  /** Offered name of the download. */
  filename: string;
  /** Written before the first row (a CSV header line). */
  preamble?: string;
}

/** Rows as lines of text (CSV, NDJSON), as a download. */
export function linesBody<T>(head: LinesHead, rows: AsyncIterable<T[]>, line: (row: T) => string, vary: string | null = null): StreamBody<T> {
  return { contentType: head.contentType, filename: head.filename, vary, rows, preamble: head.preamble ?? '', line: (row) => line(row), epilogue: '' };
}
