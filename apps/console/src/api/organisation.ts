import { type OrgRole, roleAtLeast } from '@dts/domain';
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { api } from './client';
import { keys } from './keys';

/**
 * Where the console acts: the person's own account, or an organisation (docs/api.md §20). Kept per
 * tab (sessionStorage), so that two tabs may act in two organisations; every call of the console's
 * client carries it as X-Organisation, the live feed as `?organisation=`.
 */
const STORAGE_KEY = 'dts.organisation';
const listeners = new Set<() => void>();

function stored(): string | undefined {
  try {
    return sessionStorage.getItem(STORAGE_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

api.actIn(stored());

/** The organisation's name, or null in the person's own account. */
export function actingOrganisation(): string | null {
  return api.organisation ?? null;
}

export function useActingOrganisation(): string | null {
  return useSyncExternalStore((listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, actingOrganisation);
}

/** The query string that names where the console acts, for what sends no headers (EventSource, download links). */
export function organisationQuery(prefix: '?' | '&'): string {
  const name = actingOrganisation();
  return name === null ? '' : `${prefix}organisation=${encodeURIComponent(name)}`;
}

/**
 * Acts elsewhere from now on. What the console held of the previous account goes at once (nothing
 * of one organisation shows in another), and the pages read again where they now act.
 */
export function switchOrganisation(client: QueryClient, name: string | null): void {
  if (name === actingOrganisation()) return;
  try {
    if (name === null) sessionStorage.removeItem(STORAGE_KEY);
    else sessionStorage.setItem(STORAGE_KEY, name);
  } catch {
    // Private windows may refuse storage: the choice then lasts until the page is reloaded.
  }
  api.actIn(name ?? undefined);
  client.removeQueries({ predicate: (q) => !['me', 'organisations', 'invitations'].includes(String(q.queryKey[0])) });
  void client.invalidateQueries({ queryKey: keys.me });
  for (const listener of listeners) listener();
}

/** The organisations the person is a member of, with their role in each. */
export function useOrganisations() {
  return useQuery({ queryKey: keys.organisations, queryFn: () => api.organisations.list() });
}

/** The person's role where the console acts: the owner of their own account; in an organisation, the role the list says. */
export function useActingRole(): OrgRole | null {
  const acting = useActingOrganisation();
  const organisations = useOrganisations();
  if (acting === null) return 'owner';
  return organisations.data?.find((o) => o.name.toLowerCase() === acting.toLowerCase())?.role ?? null;
}

/** Whether the person may do what needs `role` where the console acts (a control they cannot use is not shown). */
export function useCan(role: OrgRole): boolean {
  const mine = useActingRole();
  return mine !== null && roleAtLeast(mine, role);
}
