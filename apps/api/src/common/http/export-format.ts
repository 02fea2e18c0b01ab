/** What a history read can be answered as; `json` is the envelope, the others are bare rows. */
export const EXPORT_FORMATS = ['json', 'csv', 'ndjson'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_MEDIA_TYPES: Readonly<Record<ExportFormat, string>> = {
  json: 'application/json',
  csv: 'text/csv',
  ndjson: 'application/x-ndjson',
};

/** Media ranges of an Accept header that name a format, most specific first within each. */
const MEDIA_RANGES: Readonly<Record<string, { format: ExportFormat; specificity: number }>> = {
  'application/json': { format: 'json', specificity: 2 },
  'text/csv': { format: 'csv', specificity: 2 },
  'application/x-ndjson': { format: 'ndjson', specificity: 2 },
  // The type registered in 2024; clients send either.
  'application/ndjson': { format: 'ndjson', specificity: 2 },
  'text/*': { format: 'csv', specificity: 1 },
  'application/*': { format: 'json', specificity: 1 },
  '*/*': { format: 'json', specificity: 0 },
};

/**
 * The format of a history read: the `format` query member when given (a link a browser follows
 * cannot set Accept), else the acceptable type of the highest quality in the Accept header, the more
 * specific on a tie, then the earlier. JSON when nothing there names one of ours: existing
 * clients send no Accept, or accept any type, and get the envelope as before. Never 406: docs/api.md §1 has
 * no such answer, and the envelope is the service's default.
 */
export function negotiateExportFormat(format: ExportFormat | undefined, accept: string | undefined): ExportFormat {
  if (format !== undefined) return format;
  if (!accept) return 'json';
  let best: { format: ExportFormat; q: number; specificity: number } | null = null;
  for (const part of accept.split(',')) {
    const [range, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const known = range === undefined ? undefined : MEDIA_RANGES[range];
    if (!known) continue;
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!Number.isFinite(q) || q <= 0) continue;
    if (!best || q > best.q || (q === best.q && known.specificity > best.specificity)) best = { format: known.format, q, specificity: known.specificity };
  }
  return best?.format ?? 'json';
}
