/** `YYYY-MM-DDTHH:MM` from a datetime-local input, read as UTC, as the service's `until` (`YYYY-MM-DD HH:MM:SS`); empty: none. */
export function untilFromInput(value: string): string | null {
  if (!value) return null;
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(:\d{2})?$/.exec(value);
  return m ? `${m[1]} ${m[2]}${m[3] ?? ':00'}` : null;
}

/** A token's value with the middle hidden: enough to tell tokens apart, not enough to use one. */
export function maskToken(value: string): string {
  return value.length > 12 ? `${value.slice(0, 6)}…${value.slice(-4)}` : '••••';
}

/** Whether a token's `until` (UTC) has passed. */
export function expired(until: string | null, nowUnix: number): boolean {
  return until !== null && Date.parse(`${until.replace(' ', 'T')}Z`) / 1000 <= nowUnix;
}
