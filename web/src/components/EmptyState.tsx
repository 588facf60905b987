import { Empty } from 'antd';
import type { ReactNode } from 'react';

interface EmptyStateProps {
  icon: ReactNode;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  testId?: string;
}

/** The app's empty state: a soft icon tile, a title and one line of help. */
export function EmptyState({ icon, title, description, children, testId }: EmptyStateProps) {
  return (
    <Empty
      className="nb-empty"
      data-testid={testId ?? 'empty-state'}
      image={
        <span className="nb-empty__icon" aria-hidden="true">
          {icon}
        </span>
      }
      description={
        <>
          <div className="nb-empty__title">{title}</div>
          {description ? <div className="nb-empty__desc">{description}</div> : null}
        </>
      }
    >
      {children}
    </Empty>
  );
}
