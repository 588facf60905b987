import type { z } from 'zod';
import type { webpSetting } from '@nimbus/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';

type WebpSetting = z.infer<typeof webpSetting>;

export const imageKeys = {
  webp: ['images', 'webp-storage'] as const,
};

/** The "WebP storage" setting of General settings. */
export function useWebpStorage() {
  return useQuery({
    queryKey: imageKeys.webp,
    queryFn: () => api.get<WebpSetting>('/cloud/setting/webp'),
  });
}

export function useSetWebpStorage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enable: boolean) => api.put('/cloud/setting/webp', { enable }),
    onSuccess: (_, enable) => queryClient.setQueryData(imageKeys.webp, { enable }),
  });
}
