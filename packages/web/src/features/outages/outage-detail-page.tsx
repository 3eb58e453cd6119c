import { Anchor, SimpleGrid, Stack, Text } from '@mantine/core';
import { openadrEventId } from '@vpp/shared/openadr/schemas';
import { OUTAGE_MESSAGES } from '@vpp/shared/outages/messages';
import { OUTAGE_EDIT, OUTAGE_VIEW } from '@vpp/shared/outages/permissions';
import type { GridOutage, GridOutageResponse } from '@vpp/shared/outages/schemas';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmButton } from '../../components/confirm-button.tsx';
import type { Column } from '../../components/data-table.tsx';
import { DelayedLoader } from '../../components/delayed-loader.tsx';
import { ListTable } from '../../components/list-table.tsx';
import { useTimeZone } from '../../lib/account.ts';
import { usePermission } from '../../lib/permission-gate.tsx';
import { MessageDelivery } from '../customer-app/index.ts';
import {
  CustomerMessageSection,
  EventDetailFrame,
  type EventFrame,
  Figure,
  formatDispatchStart,
  NodesProgress,
  Section,
  WindowFigures,
} from '../events/index.ts';
import { useCancelOutage, useOutage, useOutageResponse } from './api.ts';
import { nodePath, OUTAGE_LIST_PATH, OUTAGE_SCREEN_TEXTS, outageRefreshMs, outageSummary, outageTitle } from './outage-format.ts';

const OUTAGE_FRAME: EventFrame = {
  listLabel: 'Grid Outages',
  listPath: OUTAGE_LIST_PATH,
  permission: OUTAGE_VIEW,
  notFound: OUTAGE_SCREEN_TEXTS.notFound,
  backToList: OUTAGE_SCREEN_TEXTS.backToList,
};

type OptOut = GridOutageResponse['cancelled_deployments'][number];

const optOutColumns = (zone: string, nowS: number): Column<OptOut>[] => [
  { key: 'nmi', header: 'NMI', render: (c) => c.nmi },
  {
    key: 'node',
    header: 'Node',
    render: (c) => (
      <Anchor component={Link} to={nodePath(c.deployment_uid)} size="sm">
        {c.deployment_uid}
      </Anchor>
    ),
  },
  { key: 'opted', header: 'Opted out', render: (c) => formatDispatchStart(c.cancelled_at, zone, nowS) },
];

function ResponseSection({ response, zone, nowS }: { response: ReturnType<typeof useOutageResponse>; zone: string; nowS: number }) {
  const r = response.data?.data;
  if (!r) return <Section title="Response">{response.isLoading ? <DelayedLoader label="Loading response" /> : <Text c="dimmed">–</Text>}</Section>;
  return (
    <>
      <Section title="Response">
        <Stack gap="xs">
          <NodesProgress done={r.responded} of={r.total_deployments} verb="responded" label="Nodes responded" />
        </Stack>
      </Section>
      <Section title={`Opted-Out (${r.total_cancelled_deployments})`}>
        {r.cancelled_deployments.length === 0 ? (
          <Text c="dimmed" size="sm">
            {OUTAGE_SCREEN_TEXTS.noOptOuts}
          </Text>
        ) : (
          <ListTable label="Opted-out nodes" columns={optOutColumns(zone, nowS)} rows={r.cancelled_deployments} rowKey={(c) => c.deployment_uid} />
        )}
      </Section>
    </>
  );
}

function RequestSection({ o, zone, nowS }: { o: GridOutage; zone: string; nowS: number }) {
  return (
    <Section title="Outage">
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
        <WindowFigures request={o.request} zone={zone} nowS={nowS} />
        <Figure label="Reason">{o.outageReason === 'PLANNED' ? 'Planned Outage' : 'Storm'}</Figure>
        <Figure label="OpenADR id">{openadrEventId(o.id)}</Figure>
      </SimpleGrid>
    </Section>
  );
}

/**
 * Grid outage detail (/virtual-power-plants/grid-outages/{id}, spec 3 §2.6): title, creator, summary,
 * nodes responded, the opted-out nodes linking to their pages, and Cancel while upcoming or in progress.
 */
export function OutageDetailPage() {
  const id = Number(useParams().id);
  const zone = useTimeZone();
  const detail = useOutage(id);
  const o = detail.data?.data;
  const nowS = (detail.dataUpdatedAt || Date.now()) / 1000;
  const refresh = o ? outageRefreshMs(o, Date.now()) : false;
  const response = useOutageResponse(id, refresh, !!o && !detail.isError);
  const canEdit = usePermission(OUTAGE_EDIT);
  return (
    <EventDetailFrame
      id={id}
      frame={OUTAGE_FRAME}
      detail={{ event: o, isLoading: detail.isLoading, error: detail.error }}
      title={(e, notFound) => (notFound ? 'Grid outage not found' : e ? outageTitle(e) : 'Grid Outage')}
      actions={(e) => canEdit && e.cancelledAt === null && (e.state === 'UPCOMING' || e.state === 'INPROGRESS') && <CancelOutage id={id} />}
    >
      {(o) => (
        <>
          <Text>{outageSummary(o, zone, nowS)}</Text>
          <RequestSection o={o} zone={zone} nowS={nowS} />
          <ResponseSection response={response} zone={zone} nowS={nowS} />
          {o.customerMessage && <CustomerMessageSection title={o.reason} text={o.customerMessage} />}
          <MessageDelivery eventId={o.id} zone={zone} />
        </>
      )}
    </EventDetailFrame>
  );
}

function CancelOutage({ id }: { id: number }) {
  const navigate = useNavigate();
  const cancel = useCancelOutage();
  return (
    <ConfirmButton
      label="Cancel"
      title="Cancel Grid Outage"
      question={OUTAGE_MESSAGES.cancelConfirm}
      confirmLabel="Cancel Grid Outage"
      onConfirm={() => cancel.mutateAsync(id).then(() => navigate(OUTAGE_LIST_PATH))}
    />
  );
}
