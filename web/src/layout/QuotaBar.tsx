import { quotaPercent } from '@nimbus/contract';
import { Progress, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useUserInfo } from '../features/auth/api';
import { quotaColor, quotaText } from './quota';

/** Storage used over quota (spec §2, §4), coloured by how full it is. */
export function QuotaBar() {
  const { t } = useTranslation('layout');
  const { data: user } = useUserInfo();
  if (!user) return null;
  const percent = quotaPercent(user.takeUpSpace, user.quota);
  const text = quotaText(user.takeUpSpace, user.quota);
  return (
    <Tooltip title={t('quota.tooltip', { percent })} placement="right">
      <div
        className="nb-quota"
        data-testid="quota-bar"
        data-percent={percent}
        aria-label={t('quota.label', { text })}
      >
        <Progress
          percent={percent}
          showInfo={false}
          strokeColor={quotaColor(percent)}
          size={{ height: 6 }}
          aria-label={t('quota.title')}
        />
        <div className="nb-quota__text">
          <span>{t('quota.title')}</span>
          <span>{text}</span>
        </div>
      </div>
    </Tooltip>
  );
}
