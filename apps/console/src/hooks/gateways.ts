import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import { keys } from '../api/keys';

/** The gateways that heard the account's devices (GET /user/gateways), from the networks' receptions. */
export function useGateways() {
  return useQuery({ queryKey: keys.gateways, queryFn: () => api.gateways.list(), refetchInterval: 60_000 });
}
