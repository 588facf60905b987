import { Typography } from 'antd';
import type { ReactNode } from 'react';

export function PageHeader({
  title,
  subtitle,
  extra,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  extra?: ReactNode;
}) {
  return (
    <div className="nb-page__header">
      <div>
        <Typography.Title level={1} className="nb-page__title">
          {title}
        </Typography.Title>
        {subtitle ? <div className="nb-page__subtitle">{subtitle}</div> : null}
      </div>
      {extra ? <div>{extra}</div> : null}
    </div>
  );
}
