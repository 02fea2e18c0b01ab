import type { CreateFenceRequest, UpdateFenceRequest } from '@dts/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { keys } from '../api/keys';

export function useFences() {
  return useQuery({ queryKey: keys.fences, queryFn: () => api.fences.list() });
}

/** The account's devices inside the fence (their last reported position, else their installation position). */
export function useFenceDevices(uid: number | null) {
  return useQuery({ queryKey: keys.fenceDevices(uid ?? 0), queryFn: () => api.fences.devices(uid!), enabled: uid !== null });
}

function useFencesChanged() {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: keys.fences });
}

export function useCreateFence() {
  const changed = useFencesChanged();
  return useMutation({ mutationFn: (body: CreateFenceRequest) => api.fences.create(body), onSuccess: changed });
}

export function useUpdateFence() {
  const changed = useFencesChanged();
  return useMutation({ mutationFn: ({ uid, body }: { uid: number; body: UpdateFenceRequest }) => api.fences.update(uid, body), onSuccess: changed });
}

export function useDeleteFence() {
  const changed = useFencesChanged();
  return useMutation({ mutationFn: (uid: number) => api.fences.remove(uid), onSuccess: changed });
}
