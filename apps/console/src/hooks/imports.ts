import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { keys } from '../api/keys';

/** What the file says, read by the service: a dry run stores nothing. */
export function usePreviewImport() {
  return useMutation({ mutationFn: (content: unknown) => api.devices.import(content, { dryRun: true }) });
}

/** Registers every row or none. */
export function useImportDevices() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (content: unknown) => api.devices.import(content),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['devices'] });
      void client.invalidateQueries({ queryKey: keys.overview });
    },
  });
}
