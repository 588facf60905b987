import { quotaPercent } from '@nimbus/contract';
import { Progress, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSpaceUse, useUserInfo } from '../api/account';
import { formatSize } from '../lib/format';
import { quotaColor, quotaText } from '../lib/quota';

/** The tooltip: how full, and what the used space is made of (files, versions, trash). */
function QuotaDetails({ percent, open }: { percent: number; open: boolean }) {
  const { t } = useTranslation('layout');
  const { data: use } = useSpaceUse(open);
  return (
    <div data-testid="quota-details">
      <div>{t('quota.tooltip', { percent })}</div>
      {use ? (
        <div data-testid="quota-parts">
          {t('quota.parts', {
            files: formatSize(use.files),
            versions: formatSize(use.versions),
            trash: formatSize(use.trash),
          })}
        </div>
      ) : null}
    </div>
  );
}

/** Storage used over quota (spec §2, §4), coloured by how full it is. */
export function QuotaBar() {
  const { t } = useTranslation('layout');
  const { data: user } = useUserInfo();
  const [open, setOpen] = useState(false);
  if (!user) return null;
  const percent = quotaPercent(user.takeUpSpace, user.quota);
  const text = quotaText(user.takeUpSpace, user.quota);
  return (
    <Tooltip
      title={<QuotaDetails percent={percent} open={open} />}
      placement="right"
      onOpenChange={setOpen}
    >
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
