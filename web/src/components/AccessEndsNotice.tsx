import { usersApi } from '@nimbus/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { callEndpoint } from '../api/endpoints';

/** What a recovery step would end, asked again each time a confirmation opens. */
export function useAccessSummary(userId?: string) {
  return useQuery({
    queryKey: ['user', 'access-summary', userId ?? 'self'] as const,
    queryFn: ({ signal }) =>
      callEndpoint(usersApi.accessSummary, { query: { id: userId } }, { signal, silent: true }),
    staleTime: 0,
    gcTime: 0,
  });
}

/**
 * Said before a recovery step (a new password, an administrator's reset, two-factor sign-in
 * turned on): which of the account's sessions and access tokens it will end.
 */
export function AccessEndsNotice({ userId }: { userId?: string }) {
  const { t } = useTranslation('common');
  const summary = useAccessSummary(userId);
  if (!summary.data) return null;
  const { otherSessions, accessTokens } = summary.data;
  const text =
    otherSessions + accessTokens === 0
      ? t('accessEnds.nothing')
      : t('accessEnds.both', {
          sessions: t(userId ? 'accessEnds.sessions' : 'accessEnds.otherSessions', {
            count: otherSessions,
          }),
          tokens: t('accessEnds.tokens', { count: accessTokens }),
        });
  return (
    <Alert
      type="warning"
      showIcon
      message={text}
      style={{ marginBottom: 12 }}
      data-testid="access-ends"
    />
  );
}
