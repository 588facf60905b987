import { Button, Tooltip, type ButtonProps } from 'antd';
import type { ReactNode } from 'react';

/**
 * A borderless icon button, named by its label, which its tooltip shows; `tooltip` may say
 * more (why the button is disabled, say).
 */
export function IconButton({
  label,
  tooltip = label,
  icon,
  size,
  danger,
  disabled,
  testId,
  onClick,
}: {
  label: string;
  tooltip?: string;
  icon: ReactNode;
  size?: ButtonProps['size'];
  danger?: boolean;
  disabled?: boolean;
  testId?: string;
  onClick: () => void;
}) {
  return (
    <Tooltip title={tooltip}>
      <Button
        type="text"
        size={size}
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
