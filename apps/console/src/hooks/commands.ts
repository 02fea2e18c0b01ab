import type { CommandWire, CreateCommandRequest } from '@dts/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { keys } from '../api/keys';
import { mergeCommand } from '../lib/live-merge';

/** Newest first; status changes arrive through the live feed. */
export function useCommands(eui: string) {
  return useQuery({ queryKey: keys.commands(eui), queryFn: () => api.commands.list(eui), staleTime: Infinity });
}

export function useAvailableCommands(eui: string) {
  return useQuery({ queryKey: keys.availableCommands(eui), queryFn: () => api.commands.available(eui), staleTime: 5 * 60_000 });
}

export function useSendCommand(eui: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateCommandRequest) => api.commands.create(eui, body),
    onSuccess: (command) => client.setQueryData<CommandWire[]>(keys.commands(eui), (list) => mergeCommand(list, command)),
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
