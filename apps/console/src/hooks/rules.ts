import type { CreateRuleRequest, UpdateRuleRequest } from '@dts/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { keys } from '../api/keys';

/** The account's alert rules (docs/api.md §19). */
export function useRules() {
  return useQuery({ queryKey: keys.rules, queryFn: () => api.rules.list() });
}

function useRulesChanged() {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: keys.rules });
}

export function useCreateRule() {
  const changed = useRulesChanged();
  return useMutation({ mutationFn: (body: CreateRuleRequest) => api.rules.create(body), onSuccess: changed });
}

export function useUpdateRule() {
  const changed = useRulesChanged();
  return useMutation({ mutationFn: ({ uid, body }: { uid: number; body: UpdateRuleRequest }) => api.rules.update(uid, body), onSuccess: changed });
}

export function useDeleteRule() {
  const changed = useRulesChanged();
  return useMutation({ mutationFn: (uid: number) => api.rules.remove(uid), onSuccess: changed });
}
