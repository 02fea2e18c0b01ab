import type { DatamodelWire } from '@dts/domain';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import { keys } from '../api/keys';

/** Every enumeration at once: networks and decoders (the account's own included), device types, icons, data types. */
export function useDatamodel() {
  return useQuery({ queryKey: keys.datamodel, queryFn: () => api.datamodel.all(), staleTime: 5 * 60_000 });
}

/** A name by uid from one of the lists, for showing a reference. */
export function nameOf(list: readonly { uid: number }[] | undefined, uid: number | null, field: string): string {
  if (uid === null) return '–';
  const found = list?.find((x) => x.uid === uid) as Record<string, unknown> | undefined;
  return found ? String(found[field]) : `#${uid}`;
}

export type Datamodel = DatamodelWire;
