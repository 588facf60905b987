import { webpApi } from '@nimbus/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../api/endpoints';

export const imageKeys = {
  webp: ['images', 'webp-storage'] as const,
};

/** The "WebP storage" setting of General settings. */
export function useWebpStorage() {
  return useQuery({
    queryKey: imageKeys.webp,
    queryFn: ({ signal }) => callEndpoint(webpApi.setting, {}, { signal }),
  });
}

export function useSetWebpStorage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enable: boolean) => callEndpoint(webpApi.setSetting, { body: { enable } }),
    onSuccess: (_, enable) => queryClient.setQueryData(imageKeys.webp, { enable }),
  });
}
