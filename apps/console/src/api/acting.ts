import { useSyncExternalStore } from 'react';

/**
 * Where the console acts: the person's own account, or an organisation (docs/api.md §20). Kept per
 * tab (sessionStorage), so that two tabs may act in two organisations. The console's client sends
 * it as X-Organisation (client.ts listens here); what sends no headers (EventSource, download
 * links) names it in the query. State only: switching, with what it drops, is organisation.ts's.
 */
const STORAGE_KEY = 'dts.organisation';
const listeners = new Set<(name: string | null) => void>();

function stored(): string | null {
  try {
    return sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

let acting: string | null = typeof sessionStorage === 'undefined' ? null : stored();

/** The organisation's name, or null in the person's own account. */
export function actingOrganisation(): string | null {
  return acting;
}

/** Sets where the console acts and tells every listener (the client, the components reading it). */
export function setActingOrganisation(name: string | null): void {
  acting = name;
  try {
    if (name === null) sessionStorage.removeItem(STORAGE_KEY);
    else sessionStorage.setItem(STORAGE_KEY, name);
  } catch {
    // Private windows may refuse storage: the choice then lasts until the page is reloaded.
  }
  for (const listener of listeners) listener(name);
}

/** Calls `listener` whenever it changes; answers the way to stop. */
export function onActingChanged(listener: (name: string | null) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useActingOrganisation(): string | null {
  return useSyncExternalStore(onActingChanged, actingOrganisation);
}

/** The query string that names where the console acts, for what sends no headers (EventSource, download links). */
export function organisationQuery(prefix: '?' | '&'): string {
  return acting === null ? '' : `${prefix}organisation=${encodeURIComponent(acting)}`;
}
