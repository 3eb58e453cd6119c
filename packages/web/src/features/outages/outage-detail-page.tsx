import { Anchor, Group, Progress, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { formatDuration } from '@vpp/shared/format';
import { openadrEventId } from '@vpp/shared/openadr/schemas';
import { OUTAGE_MESSAGES } from '@vpp/shared/outages/messages';
import { OUTAGE_EDIT, OUTAGE_VIEW } from '@vpp/shared/outages/permissions';
import type { GridOutage } from '@vpp/shared/outages/schemas';
import type { PermissionRequirement } from '@vpp/shared/permissions/registry';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmButton } from '../../components/confirm-button.tsx';
import { DelayedLoader } from '../../components/delayed-loader.tsx';
import { LoadingSkeleton } from '../../components/loading-skeleton.tsx';
import { NotFound } from '../../components/not-found.tsx';
import { PageLayout } from '../../components/page-layout.tsx';
import { useTimeZone } from '../../lib/account.ts';
import { usePermission } from '../../lib/permission-gate.tsx';
import { isNotFound } from '../../lib/request.ts';
import { MessageDelivery } from '../customer-app/index.ts';
import { DispatchStatusBadge, Figure, formatDispatchStart, Section } from '../events/index.ts';
import { useCancelOutage, useOutage, useOutageResponse } from './api.ts';
import { nodePath, OUTAGE_LIST_PATH, OUTAGE_SCREEN_TEXTS, outageRefreshMs, outageSummary, outageTitle } from './outage-format.ts';

/** Who may read the creator's name (spec 3 §2.4), as on a dispatch. */
const SEES_CREATOR: PermissionRequirement = {
  anyOf: [
    'fleet.myReposit.users',
    'fleet.dispatches.any',
    'fleet.rert.any',
    'fleet.rert.dispatches.any',
    'fleet.curtailments.any',
    'fleet.powerstations.gridOutages.any',
  ],
};

function ResponseSection({ response, zone, nowS }: { response: ReturnType<typeof useOutageResponse>; zone: string; nowS: number }) {
  const r = response.data?.data;
  if (!r) return <Section title="Response">{response.isLoading ? <DelayedLoader label="Loading response" /> : <Text c="dimmed">–</Text>}</Section>;
  const share = r.total_deployments ? (r.responded / r.total_deployments) * 100 : 0;
  return (
    <>
      <Section title="Response">
        <Stack gap="xs">
          <Text size="sm">
            {r.responded} of {r.total_deployments} nodes responded
          </Text>
          <Progress value={share} aria-label="Nodes responded" size="lg" />
        </Stack>
      </Section>
      <Section title={`Opted-Out (${r.total_cancelled_deployments})`}>
        {r.cancelled_deployments.length === 0 ? (
          <Text c="dimmed" size="sm">
            {OUTAGE_SCREEN_TEXTS.noOptOuts}
          </Text>
        ) : (
          <Table aria-label="Opted-out nodes">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>NMI</Table.Th>
                <Table.Th>Node</Table.Th>
                <Table.Th>Opted out</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {r.cancelled_deployments.map((c) => (
                <Table.Tr key={c.deployment_uid}>
                  <Table.Td>{c.nmi}</Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={nodePath(c.deployment_uid)} size="sm">
                      {c.deployment_uid}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{formatDispatchStart(c.cancelled_at, zone, nowS)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Section>
    </>
  );
}

function RequestSection({ o, zone, nowS }: { o: GridOutage; zone: string; nowS: number }) {
  return (
    <Section title="Outage">
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
        <Figure label="Start">{formatDispatchStart(o.request.startTime, zone, nowS)}</Figure>
        <Figure label="End">{formatDispatchStart(o.request.startTime + o.request.duration, zone, nowS)}</Figure>
        <Figure label="Duration">{formatDuration(o.request.duration)}</Figure>
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
  const showNames = usePermission(SEES_CREATOR);
  const notFound = isNotFound(detail.error);
  const open = o && o.cancelledAt === null && (o.state === 'UPCOMING' || o.state === 'INPROGRESS');
  const title = notFound ? 'Grid outage not found' : o ? outageTitle(o) : 'Grid Outage';

  return (
    <PageLayout
      title={title}
      permission={OUTAGE_VIEW}
      breadcrumb={[{ label: 'Virtual Power Plants' }, { label: 'Grid Outages', to: OUTAGE_LIST_PATH }, { label: `${id}` }]}
      actions={canEdit && open && <CancelOutage id={id} />}
    >
      {detail.isLoading && <LoadingSkeleton />}
      {notFound && <NotFound text={OUTAGE_SCREEN_TEXTS.notFound} listPath={OUTAGE_LIST_PATH} backLabel={OUTAGE_SCREEN_TEXTS.backToList} />}
      {o && !notFound && (
        <Stack gap="md">
          <Group gap="md" align="center">
            <DispatchStatusBadge dispatch={o} />
            {showNames && <Text c="dimmed">Created by {o.createdBy}</Text>}
          </Group>
          <Text>{outageSummary(o, zone, nowS)}</Text>
          <RequestSection o={o} zone={zone} nowS={nowS} />
          <ResponseSection response={response} zone={zone} nowS={nowS} />
          {o.customerMessage && (
            <Section title="Customer Message">
              <Text fw={600} size="sm">
                {o.reason}
              </Text>
              <Text size="sm">{o.customerMessage}</Text>
            </Section>
          )}
          <MessageDelivery eventId={o.id} zone={zone} />
        </Stack>
      )}
    </PageLayout>
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
