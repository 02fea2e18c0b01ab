import { type OrgRole, roleAtLeast } from '@dts/domain';
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { actingOrganisation, setActingOrganisation, useActingOrganisation } from './acting';
import { api } from './client';
import { keys } from './keys';

export { actingOrganisation, organisationQuery, useActingOrganisation } from './acting';

/**
 * Acts elsewhere from now on. What the console held of the previous account goes at once (nothing
 * of one organisation shows in another), and the pages read again where they now act.
 */
export function switchOrganisation(client: QueryClient, name: string | null): void {
  if (name === actingOrganisation()) return;
  setActingOrganisation(name);
  client.removeQueries({ predicate: (q) => !['me', 'organisations', 'invitations'].includes(String(q.queryKey[0])) });
  void client.invalidateQueries({ queryKey: keys.me });
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
