import { Button, Tooltip } from 'antd';
import type { ReactNode } from 'react';

/** An icon button in a row's actions column, named by its tooltip unless `tooltip` says more. */
export function RowAction({
  label,
  tooltip = label,
  icon,
  danger,
  disabled,
  testId,
  onClick,
}: {
  label: string;
  tooltip?: string;
  icon: ReactNode;
  danger?: boolean;
  disabled?: boolean;
  testId?: string;
  onClick: () => void;
}) {
  return (
    <Tooltip title={tooltip}>
      <Button
        type="text"
        danger={danger}
        icon={icon}
        aria-label={label}
        disabled={disabled}
        data-testid={testId}
        onClick={onClick}
      />
    </Tooltip>
  );
}
