import type { CreateNetworkRequest, CreateTokenRequest, SimulateUplinkRequest } from '@dts/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { keys } from '../api/keys';

/** The account's own networks (GET /user/network); their API keys are never listed. */
export function useNetworks() {
  return useQuery({ queryKey: keys.networks, queryFn: () => api.networks.list() });
}

function useNetworksChanged() {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: keys.networks });
}

export function useCreateNetwork() {
  const changed = useNetworksChanged();
  return useMutation({ mutationFn: (body: CreateNetworkRequest) => api.networks.create(body), onSuccess: changed });
}

export function useDeleteNetwork() {
  const changed = useNetworksChanged();
  return useMutation({ mutationFn: (uid: number) => api.networks.remove(uid), onSuccess: changed });
}

/**
 * A key for a network to send uplinks in with: an app token holding the `ingest` right alone, so
 * that a leaked webhook header can send data but read or change nothing. Its value comes back once.
 */
export function useCreateIngestKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.tokens.createAndGet({ type: 'API', name, rights: ['ingest'] } satisfies CreateTokenRequest),
    onSuccess: () => void client.invalidateQueries({ queryKey: keys.tokens }),
  });
}

/**
 * An uplink simulated from the console: stored and decoded as a real one. The live feed brings it
 * to the device's views; the queries are refreshed as well, for a console whose feed is not open.
 */
export function useSimulateUplink(eui: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SimulateUplinkRequest) => api.uplinks.simulate(eui, body),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keys.device(eui) });
    },
  });
}
