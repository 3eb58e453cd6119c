import { Group, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowsSort, IconArrowUp } from '@tabler/icons-react';
import type { SortOrder } from '@vpp/shared/api/inputs';

/**
 * A column header that sorts its list by `sort`: a first click ascending, the next descending. The
 * arrow shows the current direction; the accessible name says it in words.
 */
export function SortHeader<K extends string>(props: { label: string; sort: K; current: K; order: SortOrder; onSort: (sort: K, order: SortOrder) => void }) {
  const active = props.sort === props.current;
  const Icon = !active ? IconArrowsSort : props.order === 'asc' ? IconArrowUp : IconArrowDown;
  return (
    <UnstyledButton
      onClick={() => props.onSort(props.sort, active && props.order === 'asc' ? 'desc' : 'asc')}
      aria-label={`Sort by ${props.label}${active ? (props.order === 'asc' ? ', ascending' : ', descending') : ''}`}
      fw={700}
      fz="sm"
    >
      <Group gap={4} wrap="nowrap">
        {props.label}
        <Icon size={14} aria-hidden />
      </Group>
    </UnstyledButton>
  );
}

/** The header maker of one list: `header('Name', 'name')`. */
export function sortHeaders<K extends string>(current: K, order: SortOrder, onSort: (sort: K, order: SortOrder) => void) {
  return (label: string, sort: K) => <SortHeader label={label} sort={sort} current={current} order={order} onSort={onSort} />;
}
