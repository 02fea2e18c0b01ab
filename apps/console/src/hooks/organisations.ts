import type {
  AddMemberRequest,
  AdminAccountDeleteQuery,
  AuditEventWire,
  AuditQuery,
  CreateOrganisationRequest,
  InviteRequest,
  OrgRole,
  UpdateOrganisationRequest,
} from '@dts/domain';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { keys } from '../api/keys';
import { actingOrganisation, switchOrganisation } from '../api/organisation';

/** Invitations to the person's verified address. */
export function useInvitations() {
  return useQuery({ queryKey: keys.invitations, queryFn: () => api.invitations.list() });
}

/** Accepts or declines an invitation; the list of organisations follows. */
export function useAnswerInvitation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ uid, accept }: { uid: number; accept: boolean }): Promise<void> => {
      await (accept ? api.invitations.accept(uid) : api.invitations.decline(uid));
    },
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keys.invitations });
      void client.invalidateQueries({ queryKey: keys.organisations });
    },
  });
}

export function useCreateOrganisation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateOrganisationRequest) => api.organisations.create(body),
    onSuccess: () => void client.invalidateQueries({ queryKey: keys.organisations }),
  });
}

export function useUpdateOrganisation(uid: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateOrganisationRequest) => api.organisations.update(uid, body),
    onSuccess: (org, body) => {
      // Renamed while acting in it: the console names it anew.
      if (body.name && actingOrganisation() !== null && actingOrganisation() !== org.name) switchOrganisation(client, org.name);
      void client.invalidateQueries({ queryKey: keys.organisations });
    },
  });
}

/** Deletes it (owners); the console goes back to the person's own account when it acted there. */
export function useDeleteOrganisation(uid: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (q: AdminAccountDeleteQuery) => api.organisations.delete(uid, q),
    onSuccess: () => {
      switchOrganisation(client, null);
      void client.invalidateQueries({ queryKey: keys.organisations });
    },
  });
}

export function useMembers(uid: number) {
  return useQuery({ queryKey: keys.orgMembers(uid), queryFn: () => api.organisations.members(uid) });
}

export function useOrganisationInvitations(uid: number, enabled: boolean) {
  return useQuery({ queryKey: keys.orgInvitations(uid), queryFn: () => api.organisations.invitations(uid), enabled });
}

/** Invites by address or by username. */
export function useInvite(uid: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ({ email: string } | { username: string }) & { role: OrgRole }) =>
      'email' in body ? api.organisations.invite(uid, body as InviteRequest) : api.organisations.addMember(uid, body as AddMemberRequest),
    onSuccess: () => void client.invalidateQueries({ queryKey: keys.orgInvitations(uid) }),
  });
}

export function useWithdrawInvitation(uid: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (invitation: number) => api.organisations.withdrawInvitation(uid, invitation),
    onSuccess: () => void client.invalidateQueries({ queryKey: keys.orgInvitations(uid) }),
  });
}

export function useSetRole(uid: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ account, role }: { account: number; role: OrgRole }) => api.organisations.updateMember(uid, account, { role }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keys.orgMembers(uid) });
      void client.invalidateQueries({ queryKey: keys.organisations });
    },
  });
}

/** Removes a member; the person's own id leaves (and the console goes back to their own account). */
export function useRemoveMember(uid: number, self: number | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (account: number) => api.organisations.removeMember(uid, account),
    onSuccess: (_, account) => {
      if (account === self) switchOrganisation(client, null);
      void client.invalidateQueries({ queryKey: keys.orgMembers(uid) });
      void client.invalidateQueries({ queryKey: keys.organisations });
    },
  });
}

type AuditPage = { events: AuditEventWire[]; meta: { next_cursor: string | null } };

/** An organisation's audit log (admins and owners), newest first, a page at a time; read again every 15 s. */
export function useOrganisationAudit(uid: number, filter: Omit<AuditQuery, 'cursor' | 'format' | 'limit'>) {
  const query = { ...filter, limit: 100 };
  return useInfiniteQuery({
    queryKey: keys.orgAudit(uid, query),
    queryFn: ({ pageParam }) => api.organisations.audit(uid, { ...query, ...(pageParam ? { cursor: pageParam } : {}) }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: AuditPage) => last.meta.next_cursor ?? undefined,
    refetchInterval: 15_000,
  });
}
