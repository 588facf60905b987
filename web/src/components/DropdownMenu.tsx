import { Dropdown, Tooltip, type DropdownProps } from 'antd';
import type { ReactElement } from 'react';
import { AntdTheme } from './AntdProviders';

export type DropdownMenuProps = Omit<DropdownProps, 'trigger' | 'children'> & {
  children: ReactElement;
  tip: string;
};

/**
 * LazyDropdown's antd part: a click menu whose trigger shows `tip` on hover while the menu is
 * closed. Themed by itself: on the sign-in page no antd provider sits above it.
 */
export function DropdownMenu({ children, tip, open, ...props }: DropdownMenuProps) {
  return (
    <AntdTheme>
      <Dropdown {...props} trigger={['click']} open={open}>
        <Tooltip title={tip} placement="bottom" open={open ? false : undefined}>
          {children}
        </Tooltip>
      </Dropdown>
    </AntdTheme>
  );
}
