import { type CreateCommandRequest, WAITING_COMMAND_STATUSES } from '@dts/domain';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { mergeCommandInLists } from '../api/command-cache';
import { keys } from '../api/keys';
import { type CommandPage, type CommandShow } from '../lib/live-merge';

/** Commands per page of a device's list. */
export const COMMAND_PAGE = 100;

/**
 * Newest first, in pages (each older than the last uid of the one before), all or those waiting to
 * leave; status changes arrive through the live feed.
 */
export function useCommands(eui: string, show: CommandShow) {
  return useInfiniteQuery({
    queryKey: keys.commandList(eui, show),
    queryFn: async ({ pageParam }): Promise<CommandPage> => {
      const rows = await api.commands.list(eui, {
        limit: COMMAND_PAGE,
        ...(show === 'waiting' ? { status: WAITING_COMMAND_STATUSES } : {}),
        ...(pageParam === undefined ? {} : { before: pageParam }),
      });
      return { rows, next: rows.length < COMMAND_PAGE ? undefined : rows.at(-1)?.uid };
    },
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last: CommandPage) => last.next,
    staleTime: Infinity,
  });
}

export function useAvailableCommands(eui: string) {
  return useQuery({ queryKey: keys.availableCommands(eui), queryFn: () => api.commands.available(eui), staleTime: 5 * 60_000 });
}

export function useSendCommand(eui: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateCommandRequest) => api.commands.create(eui, body),
    onSuccess: (command) => mergeCommandInLists(client, command),
  });
}

export function useCancelCommand(eui: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (uid: number) => api.commands.cancel(eui, uid),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.commandLists(eui) }),
  });
}

/** Cancels every command of the device that has not reached it; the answer says which were kept, and why. */
export function useFlushCommands(eui: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.commands.flush(eui),
    onSettled: () => client.invalidateQueries({ queryKey: keys.commandLists(eui) }),
  });
}
