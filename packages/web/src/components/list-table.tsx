import { Group, Pagination, Table, type TableProps, type TableTrProps } from '@mantine/core';
import type { ReactNode } from 'react';

export interface Column<T> {
  key: string;
  header: ReactNode;
  render: (row: T) => ReactNode;
  width?: number | string;
  /** 'right' for figures, so that their digits line up down the column. */
  align?: 'left' | 'right';
}

/**
 * A short table inside a section (an event's opted-out nodes, the deliveries of its message, the VENs):
 * a header and a row per item, scrolled sideways below `minWidth` when given. A section that pages it
 * puts ListPages under it; lists with the spec's paging use DataTable.
 */
export function ListTable<T>(props: {
  label?: string;
  columns: Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  /** Each row's own props (a row set in bold). */
  rowProps?: (row: T) => TableTrProps;
  minWidth?: number;
  striped?: boolean;
  table?: Omit<TableProps, 'children'>;
}) {
  const table = (
    <Table striped={props.striped} aria-label={props.label} {...props.table}>
      <Table.Thead>
        <Table.Tr>
          {props.columns.map((c) => (
            <Table.Th key={c.key} w={c.width} ta={c.align}>
              {c.header}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {props.rows.map((row) => (
          <Table.Tr key={props.rowKey(row)} {...props.rowProps?.(row)}>
            {props.columns.map((c) => (
              <Table.Td key={c.key} ta={c.align}>
                {c.render(row)}
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
  return props.minWidth ? <Table.ScrollContainer minWidth={props.minWidth}>{table}</Table.ScrollContainer> : table;
}

/** Numbered pages under a section's list (`pageSize` items a page, page 1 first); nothing when all fit on one. */
export function ListPages(props: { total: number; pageSize: number; page: number; onPage: (page: number) => void; label: string }) {
  if (props.total <= props.pageSize) return null;
  return (
    <Group justify="flex-end" mt="sm">
      <Pagination total={Math.ceil(props.total / props.pageSize)} value={props.page} onChange={props.onPage} size="sm" aria-label={props.label} />
    </Group>
  );
}
