import type { AccountUpdateRequest, AccountWire, CreateTokenRequest, PasswordChangeRequest, UserSessionWire } from '@dts/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { keys } from '../api/keys';

export function useTokens() {
  return useQuery({ queryKey: keys.tokens, queryFn: () => api.tokens.list() });
}

/** Creates a token and answers it with its value, which the page shows once. */
export function useCreateToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateTokenRequest) => api.tokens.createAndGet(body),
    onSuccess: () => void client.invalidateQueries({ queryKey: keys.tokens }),
  });
}

export function useDeleteToken() {
  const client = useQueryClient();
  return useMutation({ mutationFn: (uid: number) => api.tokens.delete(uid), onSuccess: () => void client.invalidateQueries({ queryKey: keys.tokens }) });
}

/** The session this console runs in: when it ends, when it was made and last used. */
export function useSessionInfo() {
  return useQuery({
    queryKey: keys.session,
    queryFn: async () => {
      const [active, attributes, cookie] = await Promise.all([api.sessions.active(), api.sessions.attributes(), api.sessions.cookie()]);
      return { active, attributes, cookie };
    },
  });
}

/** Every live session of the account ("where you are signed in"), this one first. */
export function useUserSessions() {
  return useQuery({ queryKey: keys.sessions, queryFn: () => api.sessions.list() });
}

/** Ends one session; ending this one is a sign-out, and the console starts afresh. */
export function useEndSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.sessions.end(id),
    onSuccess: (ended, id) => {
      if (ended.current) return window.location.assign('/console/sign-in');
      // Gone from the list at once, not after the list is read again.
      client.setQueryData<UserSessionWire[]>(keys.sessions, (list) => list?.filter((s) => s.id !== id));
      void client.invalidateQueries({ queryKey: keys.sessions });
    },
  });
}

/** Ends every session of the account but this one. */
export function useEndOtherSessions() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.sessions.endOthers(),
    onSuccess: () => {
      // The list shows this session alone as soon as the answer says the others ended.
      client.setQueryData<UserSessionWire[]>(keys.sessions, (list) => list?.filter((s) => s.current));
      void client.invalidateQueries({ queryKey: keys.sessions });
    },
  });
}

/** Changing the password ends the account's other sessions; this one goes on. */
export function useChangePassword() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: PasswordChangeRequest) => api.auth.changePassword(body),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keys.session });
      void client.invalidateQueries({ queryKey: keys.sessions });
    },
  });
}

/** Deletes the account and everything it owns, then starts the console afresh (signed out). */
export function useDeleteAccount() {
  return useMutation({
    mutationFn: (password: string) => api.auth.deleteAccount(password),
    onSuccess: () => window.location.assign('/console/sign-in?deleted=1'),
  });
}

/** Sends the verification mail again: to the address waiting for its verification, else the unverified one. */
export function useRequestVerification() {
  return useMutation({ mutationFn: () => api.user.requestVerification() });
}

/** Asks for a new address, which stays pending until it is verified; the profile shows it at once. */
export function useChangeEmail() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: AccountUpdateRequest) => api.user.update(body),
    onSuccess: (me) => client.setQueryData<AccountWire | null>(keys.me, me),
  });
}

/** Confirms an address with the token from its mail; a signed-in account is read again (verified, perhaps a new address). */
export function useVerifyEmail() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => api.auth.verifyEmail(token),
    onSuccess: () => void client.invalidateQueries({ queryKey: keys.me }),
  });
}
