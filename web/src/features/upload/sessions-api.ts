import { uploadApi, type UploadSessionView } from '@nimbus/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../api/endpoints';

/** An upload under way on the server into the user's drive (GET /upload/sessions). */
export type ServerUpload = UploadSessionView;

export const serverUploadKeys = { all: ['upload', 'sessions'] as const };

export function useServerUploads(enabled: boolean) {
  return useQuery({
    queryKey: serverUploadKeys.all,
    enabled,
    // bytes keep arriving while the list is open
    refetchInterval: enabled ? 5000 : false,
    queryFn: async ({ signal }) => {
      const list = await callEndpoint(uploadApi.sessions, {}, { signal });
      return Array.isArray(list) ? list : [];
    },
  });
}

/** Cancel an upload under way: its bytes go and its space is freed. */
export function useCancelServerUpload() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => callEndpoint(uploadApi.cancelSession, { params: { id } }),
    onSettled: () => client.invalidateQueries({ queryKey: serverUploadKeys.all }),
  });
}
