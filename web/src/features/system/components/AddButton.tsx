import { PlusOutlined } from '@ant-design/icons';
import { Button } from 'antd';

/** The primary "add" button in an admin page's header. */
export function AddButton({
  label,
  testId,
  onClick,
}: {
  label: string;
  testId: string;
  onClick: () => void;
}) {
  return (
    <Button type="primary" icon={<PlusOutlined />} data-testid={testId} onClick={onClick}>
      {label}
    </Button>
  );
}
