import type { ReactNode } from 'react';
import { PageHeader } from './PageHeader';

/** A page of one card under its header, the shape of the admin tables (users, roles, tasks…). */
export function TablePage({
  testId,
  title,
  subtitle,
  extra,
  children,
}: {
  testId: string;
  title: ReactNode;
  subtitle?: ReactNode;
  extra?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="nb-page" data-testid={testId}>
      <PageHeader title={title} subtitle={subtitle} extra={extra} />
      <div className="nb-card" style={{ padding: 16 }}>
        {children}
      </div>
    </div>
  );
}
