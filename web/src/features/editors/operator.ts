import { SHARE_VISITOR_OPERATOR } from '@nimbus/contract';
import type { TFunction } from 'i18next';

/** Who saved a version, as the reader says it: a username, or a visitor of a share link. */
export function operatorLabel(operator: string, t: TFunction<'editors'>): string {
  if (!operator.startsWith(SHARE_VISITOR_OPERATOR)) return operator;
  return t('history.shareVisitor', { link: operator.slice(SHARE_VISITOR_OPERATOR.length) });
}
