import { PAGE_SIZES } from '@nimbus/contract';
import { Table, type TableColumnsType, type TableProps } from 'antd';
import type { Key, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** spec §9: default page size = 10 + round((table height − 500) / 45). */
export function defaultPageSize(tableHeight: number): number {
  return Math.max(10, 10 + Math.round((tableHeight - 500) / 45));
}

export interface DataTablePagination {
  page: number;
  pageSize: number;
  total: number;
  onChange: (page: number, pageSize: number) => void;
}

export interface DataTableProps<T> {
  rowKey: keyof T & string;
  columns: TableColumnsType<T>;
  data: readonly T[] | undefined;
  loading?: boolean;
  /** Adds a checkbox column; the caller keeps the selected keys. */
  selection?: {
    selectedKeys: Key[];
    onChange: (keys: Key[], rows: T[]) => void;
    disabled?: (row: T) => boolean;
  };
  /** Adds a leading # column counting across pages. */
  showIndex?: boolean;
  /** Server-side paging; omitted = everything on one page. */
  pagination?: DataTablePagination;
  /** Tree rows (children) start expanded. */
  tree?: boolean;
  onChange?: TableProps<T>['onChange'];
  emptyText?: ReactNode;
  scrollX?: number | string;
  testId?: string;
}

/**
 * The generic table of spec §2: optional selection, index column, sortable columns, tree rows
 * expanded by default, and pagination (total, sizes, pager, jumper) hidden with a single page.
 */
export function DataTable<T extends object>({
  rowKey,
  columns,
  data,
  loading,
  selection,
  showIndex,
  pagination,
  tree,
  onChange,
  emptyText,
  scrollX,
  testId,
}: DataTableProps<T>) {
  const { t } = useTranslation();
  const offset = pagination ? (pagination.page - 1) * pagination.pageSize : 0;
  const allColumns: TableColumnsType<T> = showIndex
    ? [
        {
          key: '__index',
          title: '#',
          width: 56,
          align: 'center',
          render: (_value: unknown, _row: T, index: number) => offset + index + 1,
        },
        ...columns,
      ]
    : columns;

  return (
    <Table<T>
      data-testid={testId}
      rowKey={rowKey}
      columns={allColumns}
      dataSource={data}
      loading={loading}
      size="middle"
      scroll={scrollX ? { x: scrollX } : undefined}
      onChange={onChange}
      locale={emptyText ? { emptyText } : undefined}
      expandable={tree ? { defaultExpandAllRows: true, indentSize: 20 } : undefined}
      rowSelection={
        selection
          ? {
              selectedRowKeys: selection.selectedKeys,
              onChange: (keys, rows) => selection.onChange(keys, rows),
              getCheckboxProps: selection.disabled
                ? (row) => ({ disabled: selection.disabled!(row) })
                : undefined,
            }
          : undefined
      }
      pagination={
        pagination
          ? {
              current: pagination.page,
              pageSize: pagination.pageSize,
              total: pagination.total,
              pageSizeOptions: PAGE_SIZES.map(String),
              showSizeChanger: true,
              showQuickJumper: true,
              hideOnSinglePage: true,
              showTotal: (total) => t('table.total', { count: total }),
              onChange: pagination.onChange,
            }
          : false
      }
    />
  );
}
