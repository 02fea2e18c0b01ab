/** The violated constraint's name when `error` is PostgreSQL's unique_violation (23505), else null. */
export function uniqueViolation(error: unknown): string | null {
  const e = error as { code?: string; constraint?: string; driverError?: { code?: string; constraint?: string; detail?: string } };
  const code = e?.code ?? e?.driverError?.code;
  if (code !== '23505') return null;
  return e.constraint ?? e.driverError?.constraint ?? e.driverError?.detail ?? '';
}
