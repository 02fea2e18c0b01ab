import type { CommandWire, CreateCommandRequest } from '@dts/domain';
import { type InfiniteData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { keys } from '../api/keys';
import { mergeCommandPages } from '../lib/live-merge';

/** The cached pages of a device's commands. */
export type CommandPages = InfiniteData<CommandWire[], number | undefined>;

/** Commands per page of a device's list. */
export const COMMAND_PAGE = 100;

/** Newest first, in pages (each older than the last uid of the one before); status changes arrive through the live feed. */
export function useCommands(eui: string) {
  return useInfiniteQuery({
    queryKey: keys.commands(eui),
    queryFn: ({ pageParam }) => api.commands.list(eui, { limit: COMMAND_PAGE, ...(pageParam === undefined ? {} : { before: pageParam }) }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last: CommandWire[]) => (last.length < COMMAND_PAGE ? undefined : last.at(-1)?.uid),
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
    onSuccess: (command) => client.setQueryData<CommandPages>(keys.commands(eui), (data) => mergeCommandPages(data, command)),
  });
}

export function useCancelCommand(eui: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (uid: number) => api.commands.cancel(eui, uid),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.commands(eui) }),
  });
}

/** Cancels every command of the device that has not reached it; the answer says which were kept, and why. */
export function useFlushCommands(eui: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.commands.flush(eui),
    onSettled: () => client.invalidateQueries({ queryKey: keys.commands(eui) }),
  });
}
