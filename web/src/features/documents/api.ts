import { officeConfigApi, type OfficeConfigView } from '@nimbus/contract';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint } from '../../api/endpoints';
import { suffixOf } from '../../lib/file-kinds';
import type { PreviewItem, PreviewSource } from '../../actions/viewers';

export const documentKeys = { officeConfig: ['documents', 'office-config'] as const };

/** The OnlyOffice settings, for the signed-in user (visitors view documents as PDF). */
export function useOfficeConfig(enabled: boolean) {
  return useQuery({
    queryKey: documentKeys.officeConfig,
    queryFn: ({ signal }) => callEndpoint(officeConfigApi.config, {}, { signal }),
    enabled,
    staleTime: 60_000,
  });
}

/** Whether a document opens in the OnlyOffice editor rather than as a PDF. */
export const editsInOnlyOffice = (
  item: PreviewItem,
  source: PreviewSource,
  config: OfficeConfigView | undefined,
) =>
  source.kind === 'owner' &&
  Boolean(config?.documentServer) &&
  (config?.format ?? []).includes(suffixOf(item));
