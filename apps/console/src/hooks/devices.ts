import type { DeviceMetaUpdateRequest, DeviceRegisterRequest } from '@dts/domain';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { keys } from '../api/keys';
import { type ListState, listQuery } from '../lib/list-state';

/** Rows per page of the device list: the table asks for the next page as it scrolls near the end. */
export const PAGE_SIZE = 200;

/** The device list, filtered and sorted by the service, in keyset pages. */
export function useDeviceList(state: ListState) {
  const base = listQuery(state, PAGE_SIZE);
  return useInfiniteQuery({
    queryKey: keys.deviceList(base),
    queryFn: ({ pageParam }) => api.meta.list(listQuery(state, PAGE_SIZE, pageParam)),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.meta.next_cursor ?? undefined,
  });
}

/** Every device at once (the map overview, the folder list). */
export function useAllDevices() {
  return useQuery({ queryKey: keys.allDevices, queryFn: () => api.meta.all() });
}

export function useDevice(eui: string) {
  return useQuery({ queryKey: keys.device(eui), queryFn: () => api.meta.get(eui), select: (rows) => rows[0] });
}

export function useOverview() {
  return useQuery({ queryKey: keys.overview, queryFn: () => api.user.overview() });
}

/** The account's recent activity (GET /user/activity), refreshed with the overview by live events. */
export function useActivity(limit = 20) {
  return useQuery({ queryKey: keys.activity, queryFn: () => api.user.activity(limit) });
}

export function useConsoleConfig() {
  return useQuery({ queryKey: keys.config, queryFn: () => api.user.consoleConfig(), staleTime: Infinity });
}

function useDevicesChanged() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: ['devices'] });
    void client.invalidateQueries({ queryKey: keys.overview });
  };
}

export function useRegisterDevice() {
  const changed = useDevicesChanged();
  return useMutation({
    mutationFn: ({ eui, body }: { eui: string; body: DeviceRegisterRequest }) => api.devices.register(eui, body),
    onSuccess: changed,
  });
}

export function useUpdateDevice(eui: string) {
  const client = useQueryClient();
  const changed = useDevicesChanged();
  return useMutation({
    mutationFn: (body: DeviceMetaUpdateRequest) => api.meta.update(eui, body),
    onSuccess: (rows) => {
      client.setQueryData(keys.device(eui), rows);
      changed();
    },
  });
}

export function useDeleteDevice() {
  const client = useQueryClient();
  const changed = useDevicesChanged();
  return useMutation({
    mutationFn: (eui: string) => api.devices.remove(eui),
    onSuccess: (_, eui) => {
      client.removeQueries({ queryKey: ['device', eui] });
      changed();
    },
  });
}

export function useShareDevice(eui: string) {
  return useMutation({ mutationFn: (username: string) => api.devices.share(eui, username) });
}
