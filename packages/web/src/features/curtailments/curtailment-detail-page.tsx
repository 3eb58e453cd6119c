import { Anchor, Box, SimpleGrid, Stack, Text } from '@mantine/core';
import {
  CURTAILMENT_DETAIL_REFRESH_MS,
  CURTAILMENT_NODES_REFRESH_MS,
  curtailmentComponentLabel,
  curtailmentTitle,
  CURTAILMENT_MESSAGES as M,
} from '@vpp/shared/curtailments/messages';
import { CURTAILMENT_EDIT, CURTAILMENT_VIEW } from '@vpp/shared/curtailments/permissions';
import type { CurtailmentDetail } from '@vpp/shared/curtailments/schemas';
import { formatDuration, formatPower } from '@vpp/shared/format';
import { openadrEventId } from '@vpp/shared/openadr/schemas';
import { NODE_VIEW } from '@vpp/shared/vpps/permissions';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmButton } from '../../components/confirm-button.tsx';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { DelayedLoader } from '../../components/delayed-loader.tsx';
import { ListTable } from '../../components/list-table.tsx';
import { useTimeZone } from '../../lib/account.ts';
import { usePermission } from '../../lib/permission-gate.tsx';
import { DispatchStatusBadge, EventDetailFrame, type EventFrame, Figure, formatDispatchStart, NodesProgress, Section, WindowFigures } from '../events/index.ts';
import {
  inProgress,
  useCancelCurtailment,
  useCurtailment,
  useCurtailmentEvents,
  useCurtailmentNodes,
  useCurtailmentPrediction,
  useCurtailmentResponse,
} from './api.ts';
import { CurtailmentChart } from './curtailment-chart.tsx';
import { cancellable, curtailmentPath, FEED_IN_LIST_PATH } from './curtailment-form.ts';

/** Texts of the detail that spec 3 does not give. */
export const DETAIL_TEXTS = {
  notFound: 'This curtailment could not be found. It may have been removed, or it belongs to another organisation.',
  backToList: 'Back to Feed-In Management',
  noEvents: 'There are no upcoming or in-progress curtailments.',
  noNodes: 'No nodes take part in this curtailment.',
} as const;

const CURTAILMENT_FRAME: EventFrame = {
  listLabel: M.title,
  listPath: FEED_IN_LIST_PATH,
  permission: CURTAILMENT_VIEW,
  notFound: DETAIL_TEXTS.notFound,
  backToList: DETAIL_TEXTS.backToList,
};

function CancelButton({ id }: { id: number }) {
  const navigate = useNavigate();
  const cancel = useCancelCurtailment();
  return (
    <ConfirmButton
      label="Cancel"
      title="Cancel Curtailment"
      question={M.cancelConfirm}
      confirmLabel="Cancel Curtailment"
      onConfirm={() => cancel.mutateAsync(id).then(() => navigate(FEED_IN_LIST_PATH))}
    />
  );
}

function RequestSection({ c, zone, nowS }: { c: CurtailmentDetail; zone: string; nowS: number }) {
  const r = c.request;
  return (
    <Section title="Request">
      <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="md">
        <WindowFigures request={r} zone={zone} nowS={nowS} />
        <Figure label="Limit">{formatPower(r.realPowerP, 1)}</Figure>
        <Figure label="Component">{curtailmentComponentLabel(c.component)}</Figure>
        <Figure label="OpenADR id">{openadrEventId(c.id)}</Figure>
        <Figure label="Nodes requested">{r.deploymentsRequested}</Figure>
      </SimpleGrid>
    </Section>
  );
}

/**
 * Node progress and accepted power (spec 3 §2.7): the nodes whose devices accepted their share of
 * the limit, and the power the VPP now holds under it (its export at the meters for a net limit, its
 * solar for a gross one), with the other measured figure beside it.
 */
function ResponseSection({ c }: { c: CurtailmentDetail }) {
  const r = c.currentResponse;
  // The nodes asked as the node table lists them (a node that joined the VPP since the start too).
  const requested = r.deploymentsAsked;
  const gross = c.component === 'solar';
  const imports = c.component === 'import';
  // An import limit holds the VPP's net import: what its meters import now.
  const accepted = gross ? r.solarPower : r.meterPower === null ? null : imports ? Math.max(0, r.meterPower) : Math.max(0, -r.meterPower);
  return (
    <Section title="Response">
      <Stack gap="sm">
        <NodesProgress done={r.deploymentsAccepted} of={requested} verb="accepted" label="Nodes accepted" />
        <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="md">
          <Figure label="Accepted power">{formatPower(accepted, 1)}</Figure>
          <Figure label="Solar power">{formatPower(r.solarPower, 1)}</Figure>
          <Figure label="Meter power">{formatPower(r.meterPower, 1)}</Figure>
        </SimpleGrid>
        <Text size="xs" c="dimmed">
          {gross
            ? 'Accepted power is the solar generation of the nodes now.'
            : imports
              ? 'Accepted power is the import at the meters of the Virtual Power Plant’s homes now (those without a battery too).'
              : 'Accepted power is the export at the nodes’ meters now.'}
        </Text>
      </Stack>
    </Section>
  );
}

type PanelEvent = NonNullable<ReturnType<typeof useCurtailmentEvents>['data']>[number];

const eventColumns = (zone: string, nowS: number): Column<PanelEvent>[] => [
  {
    key: 'event',
    header: 'Event',
    render: (e) => (
      <Anchor component={Link} to={curtailmentPath(e.id)} size="sm">
        {e.powerstation?.name ?? M.unknownVpp}
      </Anchor>
    ),
  },
  { key: 'start', header: 'Start', render: (e) => formatDispatchStart(e.startTime, zone, nowS) },
  { key: 'duration', header: 'Duration', render: (e) => formatDuration(e.duration) },
  {
    key: 'state',
    header: 'State',
    render: (e) => (
      <Box miw="max-content">
        <DispatchStatusBadge dispatch={{ state: e.state, cancelledAt: null }} />
      </Box>
    ),
  },
];

/** The events panel (spec 3 §2.7): upcoming and in-progress curtailments of the organisation, each linking to its detail. */
function EventsPanel({ id, zone, nowS }: { id: number; zone: string; nowS: number }) {
  const events = useCurtailmentEvents(true);
  return (
    <Section title="Curtailment Events">
      {events.isLoading ? (
        <DelayedLoader label="Loading events" />
      ) : events.data?.length ? (
        <ListTable
          label="Curtailment events"
          columns={eventColumns(zone, nowS)}
          rows={events.data}
          rowKey={(e) => e.id}
          rowProps={(e) => ({ fw: e.id === id ? 600 : undefined })}
          minWidth={520}
        />
      ) : (
        <Text c="dimmed" size="sm">
          {events.isError ? '' : DETAIL_TEXTS.noEvents}
        </Text>
      )}
    </Section>
  );
}

type NodeRow = { id: number; nmi: string | null; serialNumber: string; address: string | null; responded: boolean };

/** The curtailment's nodes (spec 3 §2.7), refreshed every 15 s; a node links to its page for those who may see it. */
function NodeTable({ id, enabled }: { id: number; enabled: boolean }) {
  const [page, setPage] = useState({ limit: 10, offset: 0 });
  const nodes = useCurtailmentNodes(id, page, enabled);
  const linkNodes = usePermission(NODE_VIEW);
  const columns: Column<NodeRow>[] = [
    {
      key: 'id',
      header: 'Node',
      render: (n) =>
        linkNodes ? (
          <Anchor component={Link} to={`/fleet-monitoring/nodes/${n.id}`} size="sm">
            {n.id}
          </Anchor>
        ) : (
          n.id
        ),
    },
    { key: 'nmi', header: 'NMI', render: (n) => n.nmi ?? '–' },
    { key: 'serial', header: 'Serial Number', render: (n) => n.serialNumber },
    { key: 'address', header: 'Address', render: (n) => n.address ?? '–' },
    { key: 'responded', header: 'Responded', render: (n) => (n.responded ? 'Yes' : 'No') },
  ];
  return (
    <Section title="Nodes">
      <DataTable
        label="Curtailment nodes"
        columns={columns}
        rows={nodes.data?.nodes}
        rowKey={(n) => n.id}
        total={nodes.data?.total ?? 0}
        limit={page.limit}
        offset={page.offset}
        onPage={(limit, offset) => setPage({ limit, offset })}
        empty={DETAIL_TEXTS.noNodes}
        loading={nodes.isLoading}
      />
      <Text size="xs" c="dimmed" mt="xs">
        Refreshed every {CURTAILMENT_NODES_REFRESH_MS / 1000} seconds.
      </Text>
    </Section>
  );
}

/**
 * Curtailment detail (/virtual-power-plants/feed-in-management/{id}, spec 3 §2.7): titled by its
 * reason when triggered, otherwise its VPP ('Unknown' when not found); the request, node progress
 * and accepted power, the graph of solar and meter power predicted and measured with the limit,
 * the CURTAILMENT events panel, the node table; Cancel while upcoming or in progress. Refreshed
 * every 8 s while in progress.
 */
export function CurtailmentDetailPage() {
  const id = Number(useParams().id);
  const zone = useTimeZone();
  const detail = useCurtailment(id);
  const c = detail.data?.data;
  const nowS = (detail.dataUpdatedAt || Date.now()) / 1000;
  const loaded = !!c && !detail.isError;
  const refresh = c && inProgress(c, Date.now()) ? CURTAILMENT_DETAIL_REFRESH_MS : false;
  const response = useCurtailmentResponse(id, refresh, loaded);
  const prediction = useCurtailmentPrediction(id, loaded);
  const canEdit = usePermission(CURTAILMENT_EDIT);

  return (
    <EventDetailFrame
      id={id}
      frame={CURTAILMENT_FRAME}
      detail={{ event: c, isLoading: detail.isLoading, error: detail.error }}
      title={(e, notFound) => (notFound ? 'Curtailment not found' : e ? curtailmentTitle(e) : 'Curtailment')}
      actions={(e) => canEdit && cancellable(e) && <CancelButton id={id} />}
      label={(e) => `Curtailment ${e.id}`}
      vpp={(e) => e.triggered && (e.powerstation?.name ?? M.unknownVpp)}
      creator="always"
    >
      {(c) => (
        <>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
            <RequestSection c={c} zone={zone} nowS={nowS} />
            <ResponseSection c={c} />
          </SimpleGrid>
          <Section title="Solar and Meter Power">
            <CurtailmentChart
              label="Curtailment solar and meter power"
              data={{ predicted: prediction.data, measured: response.data }}
              loading={prediction.isLoading || response.isLoading}
              zone={zone}
              component={c.component}
              realPowerP={c.request.realPowerP}
              startTime={c.request.startTime}
              duration={c.request.duration}
              step={response.data?.interval ?? prediction.data?.interval ?? 300}
              height={320}
            />
          </Section>
          <EventsPanel id={id} zone={zone} nowS={nowS} />
          <NodeTable id={id} enabled={loaded} />
        </>
      )}
    </EventDetailFrame>
  );
}
