import type { CreateCodecRequest, ImportCodecRequest, TryCodecRequest, UpdateCodecRequest } from '@dts/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { keys } from '../api/keys';

/** The account's codecs, with their examples and results. */
export function useCodecs() {
  return useQuery({ queryKey: keys.codecs, queryFn: () => api.codecs.list() });
}

export function useCodec(uid: number | null) {
  return useQuery({ queryKey: keys.codec(uid ?? 0), queryFn: () => api.codecs.get(uid!), enabled: uid !== null });
}

/** Codecs are decoders too: the datamodel's decoder list changes with them. */
function useCodecsChanged() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: keys.codecs });
    void client.invalidateQueries({ queryKey: keys.datamodel });
  };
}

export function useCreateCodec() {
  const changed = useCodecsChanged();
  return useMutation({ mutationFn: (body: CreateCodecRequest) => api.codecs.create(body), onSuccess: changed });
}

export function useImportCodec() {
  const changed = useCodecsChanged();
  return useMutation({ mutationFn: (body: ImportCodecRequest) => api.codecs.import(body), onSuccess: changed });
}

export function useUpdateCodec(uid: number) {
  const client = useQueryClient();
  const changed = useCodecsChanged();
  return useMutation({
    mutationFn: (body: UpdateCodecRequest) => api.codecs.update(uid, body),
    onSuccess: (codec) => {
      client.setQueryData(keys.codec(uid), codec);
      changed();
    },
  });
}

export function useDeleteCodec() {
  const client = useQueryClient();
  const changed = useCodecsChanged();
  return useMutation({
    mutationFn: (uid: number) => api.codecs.remove(uid),
    onSuccess: (_, uid) => {
      client.removeQueries({ queryKey: keys.codec(uid) });
      changed();
    },
  });
}

/** A draft on given bytes and/or a codec's examples: nothing is stored. */
export function useTryCodec() {
  return useMutation({ mutationFn: (body: TryCodecRequest) => api.codecs.try(body) });
}
