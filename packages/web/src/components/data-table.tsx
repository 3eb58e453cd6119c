import { Group, Pagination, Select, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@vpp/shared/constants';
import { useEffect } from 'react';
import { z } from 'zod';
import { useSearchState } from '../lib/search-state.ts';
import { type Column, ListTable } from './list-table.tsx';
import { LoadingSkeleton } from './loading-skeleton.tsx';

export type { Column };

/**
 * Moves a table to a page: `replace` when the table corrects a page it cannot show (past the end), so
 * that Back does not return to it.
 */
export type OnPage = (limit: number, offset: number, replace?: boolean) => void;

/** The pager's arrows say where they go (they show only an icon). */
const PAGER_LABELS = { first: 'First page', previous: 'Previous page', next: 'Next page', last: 'Last page' } as const;

/** `limit` (one of the spec's page sizes, default 10) and `offset` (a whole number, default 0) in the query string (spec 1 §9). */
export const pagingSearch = z.object({
  limit: z
    .string()
    .optional()
    .transform((v) => {
      const asked = Number(v);
      return (PAGE_SIZES as readonly number[]).includes(asked) ? asked : DEFAULT_PAGE_SIZE;
    }),
  offset: z
    .string()
    .optional()
    .transform((v) => Math.max(0, Math.floor(Number(v) || 0))),
});

/** The list's page from the URL, so that each page can be linked, and a setter that keeps the rest of the query. */
export function usePaging(): { limit: number; offset: number; setPage: OnPage } {
  const [{ limit, offset }, set] = useSearchState(pagingSearch);
  return { limit, offset, setPage: (l, o, replace) => set({ limit: l, offset: o }, { replace }) };
}

/**
 * A table with the spec's paging: sizes 10, 50, 75, 100, 150, 200; a window of 3, 5 or 7 page
 * buttons by screen size; 'a-b of N items' (spec 3 §2.2); rows clickable when `onRowClick` is given; the empty text when no rows.
 */
export function DataTable<T>(props: {
  columns: Column<T>[];
  rows: T[] | undefined;
  rowKey: (row: T) => string | number;
  total: number;
  limit: number;
  offset: number;
  onPage: OnPage;
  onRowClick?: (row: T) => void;
  empty: string;
  loading?: boolean;
  label?: string;
  /** Below this width (px) the table scrolls sideways rather than squeezing its columns (default 600). */
  minWidth?: number;
}) {
  const pages = Math.max(1, Math.ceil(props.total / props.limit));
  // An offset past the end (an old link, or rows removed meanwhile) moves to the last page: never an inverted range.
  const last = (pages - 1) * props.limit;
  const beyond = props.rows !== undefined && !props.loading && props.offset > last;
  const offset = Math.min(props.offset, last);
  const { onPage, limit, onRowClick } = props;
  useEffect(() => {
    if (beyond) onPage(limit, last, true);
  }, [beyond, onPage, limit, last]);
  if (props.loading && !props.rows) {
    return <LoadingSkeleton variant="table" rows={Math.min(props.limit, 10)} label={props.label ? `Loading ${props.label}` : 'Loading'} />;
  }
  return (
    <>
      <ListTable<T>
        label={props.label}
        columns={props.columns}
        rows={props.rows ?? []}
        rowKey={props.rowKey}
        minWidth={props.minWidth ?? 600}
        striped
        table={{ highlightOnHover: !!onRowClick }}
        rowProps={
          onRowClick &&
          ((row) => ({
            onClick: () => onRowClick(row),
            // A row that opens something is reached with Tab and opened with Enter, as a link is (WCAG 2.1.1).
            tabIndex: 0,
            onKeyDown: (e: React.KeyboardEvent<HTMLTableRowElement>) => {
              if (e.key === 'Enter' && e.target === e.currentTarget) onRowClick(row);
            },
            style: { cursor: 'pointer' },
          }))
        }
      />
      {props.rows && props.rows.length === 0 && !beyond && (
        <Text c="dimmed" ta="center" py="lg">
          {props.empty}
        </Text>
      )}
      <Pager total={props.total} limit={props.limit} offset={offset} onPage={props.onPage} />
    </>
  );
}

/**
 * The spec's pager under a list (a table, an accordion): 'a-b of N items', a window of 3, 5 or 7
 * page buttons by screen size and the page sizes; nothing when the list is empty.
 */
export function Pager(props: { total: number; limit: number; offset: number; onPage: OnPage }) {
  const small = useMediaQuery('(max-width: 48em)');
  const large = useMediaQuery('(min-width: 100em)');
  const siblings = small ? 1 : large ? 3 : 2;
  const pages = Math.max(1, Math.ceil(props.total / props.limit));
  const page = Math.floor(props.offset / props.limit) + 1;
  if (props.total <= 0) return null;
  return (
    <Group justify="space-between" mt="sm">
      <Text size="sm" c="dimmed">
        {`${props.offset + 1}-${Math.min(props.total, props.offset + props.limit)} of ${props.total} items`}
      </Text>
      <Group gap="sm">
        <Pagination
          total={pages}
          value={page}
          siblings={siblings}
          boundaries={1}
          onChange={(p) => props.onPage(props.limit, (p - 1) * props.limit)}
          getControlProps={(control) => ({ 'aria-label': PAGER_LABELS[control] })}
          size="sm"
        />
        <Select
          aria-label="Rows per page"
          w={90}
          size="xs"
          data={PAGE_SIZES.map(String)}
          value={String(props.limit)}
          allowDeselect={false}
          onChange={(v) => v && props.onPage(Number(v), 0)}
        />
      </Group>
    </Group>
  );
}
