import { Box, Button, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { DispatchSummary } from '@vpp/shared/dispatches/schemas';
import { formatDuration, formatPower } from '@vpp/shared/format';
import type { PermissionRequirement } from '@vpp/shared/permissions/registry';
import { type ReactNode, useState } from 'react';
import { useNavigate } from 'react-router';
import { type Column, DataTable, type OnPage, usePaging } from '../../components/data-table.tsx';
import { PageLayout } from '../../components/page-layout.tsx';
import { TimesInZone } from '../../components/times-in-zone.tsx';
import { useTimeZone } from '../../lib/account.ts';
import { usePermission } from '../../lib/permission-gate.tsx';
import { eventLabel, formatDispatchStart, requestKind } from './event-format.ts';
import { DispatchStatusBadge } from './event-status-badge.tsx';

/** What every kind's summary has for its row in an event table. */
export type EventRow = Pick<DispatchSummary, 'id' | 'state' | 'cancelledAt'> & { request: { startTime: number; duration: number } };

/** How a kind's summary reads in the table's Event and Request columns. */
export interface EventRowFormat<T extends EventRow> {
  /** The Event column: the event's label, and its VPP below it. */
  label: (e: T) => ReactNode;
  vpp: (e: T) => string;
  /** The Request column (a kind without one has none): the power, and what it is below it. */
  request?: (e: T) => { power: string; kind: string };
}

const twoLines = (first: ReactNode, second: ReactNode, strong: boolean) => (
  <Stack gap={0}>
    <Text size="sm" fw={strong ? 500 : undefined}>
      {first}
    </Text>
    <Text size="xs" c="dimmed">
      {second}
    </Text>
  </Stack>
);

/** The columns of a kind's events (spec 3 §2.2, §2.5, §2.6, §2.7): Event (label and VPP), Start, Duration, Request where the kind has one, Status. */
export function eventColumns<T extends EventRow>(f: EventRowFormat<T>, zone: string, nowS: number): Column<T>[] {
  const request = f.request;
  return [
    { key: 'event', header: 'Event', render: (e) => twoLines(f.label(e), f.vpp(e), true) },
    { key: 'start', header: 'Start', render: (e) => formatDispatchStart(e.request.startTime, zone, nowS) },
    { key: 'duration', header: 'Duration', render: (e) => formatDuration(e.request.duration) },
    ...(request
      ? [
          {
            key: 'request',
            header: 'Request',
            render: (e: T) => {
              const r = request(e);
              return twoLines(r.power, r.kind, false);
            },
          },
        ]
      : []),
    {
      key: 'status',
      header: 'Status',
      // At its full width: a narrow screen scrolls the table rather than cut the word.
      render: (e) => (
        <Box miw="max-content">
          <DispatchStatusBadge dispatch={e} />
        </Box>
      ),
    },
  ];
}

/** A page of a kind's events, as its list call answers it. */
export interface EventPage<T> {
  rows: T[] | undefined;
  total: number;
  loading: boolean;
  limit: number;
  offset: number;
  onPage: OnPage;
}

/**
 * A paged table of a kind's rows, as its list call answers them: its events (spec 3 §2.2, §2.5, §2.6,
 * §2.7; with `eventColumns`), or a curtailment's default setpoints; a row opens its detail where it has
 * a `path`.
 */
export function EventTable<T extends { id: number }>(props: {
  label: string;
  columns: Column<T>[];
  page: EventPage<T>;
  path?: (id: number) => string;
  empty: string;
}) {
  const { page, path } = props;
  const navigate = useNavigate();
  return (
    <DataTable
      label={props.label}
      columns={props.columns}
      rows={page.rows}
      rowKey={(e) => e.id}
      total={page.total}
      limit={page.limit}
      offset={page.offset}
      onPage={page.onPage}
      onRowClick={path ? (e) => navigate(path(e.id)) : undefined}
      empty={props.empty}
      loading={page.loading}
    />
  );
}

/** How a dispatch event (a dispatch, a RERT dispatch) reads in its list. */
const dispatchRow = (numbered: boolean): EventRowFormat<DispatchSummary> => ({
  label: (d) => `${eventLabel(d)}${numbered ? ` ${d.id}` : ''}`,
  vpp: (d) => d.powerstation.name,
  request: (d) => ({ power: formatPower(d.request.realPowerP), kind: requestKind(d.request.realPowerP) }),
});

/** A kind's page of events (limit, offset): rows, total and whether the first is loading, and when it was fetched. */
export interface EventListQuery<T> {
  rows: T[] | undefined;
  total: number;
  isLoading: boolean;
  dataUpdatedAt: number;
}

/** A list call's query as the list view reads it: `pick` finds the page's rows and total in its reply. */
export function listQuery<R, T>(q: UseQueryResult<R>, pick: (reply: R) => { rows: T[]; total: number }): EventListQuery<T> {
  const page = q.data === undefined ? undefined : pick(q.data);
  return { rows: page?.rows, total: page?.total ?? 0, isLoading: q.isLoading, dataUpdatedAt: q.dataUpdatedAt };
}

/** What a kind of event gives its list page. */
export interface EventListConfig<T extends EventRow = DispatchSummary> {
  title: string;
  viewPermission: PermissionRequirement;
  editPermission: PermissionRequirement;
  newLabel: string;
  /** The page of events from the kind's list call. */
  useList: (q: { limit: number; offset: number }) => EventListQuery<T>;
  /** How a row reads; by default a dispatch's (with the id beside the label when `numbered`). */
  format?: EventRowFormat<T>;
  /** Paging in the URL (limit, offset: the spec's routes), or held by the page (a list whose route has none). */
  paging?: 'url' | 'page';
  path: (id: number) => string;
  empty: string;
  /** A dispatch event's id beside its label in the Event column. */
  numbered?: boolean;
  newModal: (props: { opened: boolean; onClose: () => void }) => ReactNode;
}

/** A list of events of a kind (spec 3 §2.2, §2.5, §2.6): latest start first, paged, with New for those who may edit. */
export function EventListView<T extends EventRow = DispatchSummary>({ config: c }: { config: EventListConfig<T> }) {
  const url = usePaging();
  const [held, setHeld] = useState({ limit: 10, offset: 0 });
  const { limit, offset, setPage } = c.paging === 'page' ? { ...held, setPage: (l: number, o: number) => setHeld({ limit: l, offset: o }) } : url;
  const list = c.useList({ limit, offset });
  const zone = useTimeZone();
  const canEdit = usePermission(c.editPermission);
  const [creating, setCreating] = useState(false);
  const nowS = (list.dataUpdatedAt || Date.now()) / 1000;
  const format = c.format ?? (dispatchRow(c.numbered ?? false) as unknown as EventRowFormat<T>);

  return (
    <PageLayout
      title={c.title}
      permission={c.viewPermission}
      breadcrumb={[{ label: 'Virtual Power Plants' }, { label: c.title }]}
      actions={
        canEdit && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            {c.newLabel}
          </Button>
        )
      }
    >
      <EventTable
        label={c.title}
        columns={eventColumns(format, zone, nowS)}
        page={{ rows: list.rows, total: list.total, loading: list.isLoading, limit, offset, onPage: setPage }}
        path={c.path}
        empty={c.empty}
      />
      <TimesInZone zone={zone} />
      {canEdit && c.newModal({ opened: creating, onClose: () => setCreating(false) })}
    </PageLayout>
  );
}
