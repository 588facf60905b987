import type { Breakpoint, TableColumnsType } from 'antd';
import dayjs from 'dayjs';

/** The "created" column: date and minute, or a dash when the row has none. */
export function createdColumn<T>(
  title: string,
  responsive: Breakpoint[],
): TableColumnsType<T>[number] {
  return {
    key: 'createTime',
    dataIndex: 'createTime',
    title,
    width: 170,
    responsive,
    render: (value: string) => (value ? dayjs(value).format('YYYY-MM-DD HH:mm') : '—'),
  };
}
