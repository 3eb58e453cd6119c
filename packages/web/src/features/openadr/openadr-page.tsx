import { Anchor, Badge, Button, Card, Code, CopyButton, Group, MultiSelect, Stack, Table, Text, Title } from '@mantine/core';
import { OPENADR_PERMISSION } from '@vpp/shared/openadr/permissions';
import type { OpenadrOverview } from '@vpp/shared/openadr/schemas';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Column } from '../../components/data-table.tsx';
import { ListTable } from '../../components/list-table.tsx';
import { PageLayout } from '../../components/page-layout.tsx';
import { useOpenadrOverview, useSetVenVpps } from './api.ts';

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function VenVpps({ ven, vpps }: { ven: OpenadrOverview['vens'][number]; vpps: OpenadrOverview['vpps'] }) {
  const save = useSetVenVpps();
  return (
    <MultiSelect
      aria-label={`VPPs of ${ven.venName}`}
      data={vpps.map((v) => ({ value: String(v.id), label: v.name }))}
      value={ven.vppIds.map(String)}
      onChange={(ids) => save.mutate({ id: ven.id, vppIds: ids.map(Number) })}
      placeholder={ven.vppIds.length ? undefined : 'No VPP: the VEN receives no events'}
      clearable
      disabled={save.isPending}
    />
  );
}

const STATUS_COLOR = { APPLIED: 'teal', NOT_APPLIED: 'orange', DELETED: 'gray' } as const;
const STATUS_TEXT = { APPLIED: 'Applied', NOT_APPLIED: 'Not applied', DELETED: 'Deleted by the VTN' } as const;

type Received = NonNullable<OpenadrOverview['ven']>['events'][number];

const RECEIVED_COLUMNS: Column<Received>[] = [
  {
    key: 'event',
    header: 'Event',
    render: (e) => (
      <>
        {e.eventName ?? e.eventID}
        <Text size="xs" c="dimmed">
          {e.eventID} · {e.programID}
        </Text>
      </>
    ),
  },
  { key: 'limit', header: 'Limit', render: (e) => e.payloadType },
  {
    key: 'status',
    header: 'Status',
    render: (e) => (
      <>
        <Badge color={STATUS_COLOR[e.status]} variant="light">
          {STATUS_TEXT[e.status]}
        </Badge>
        {e.detail && (
          <Text size="xs" c="dimmed">
            {e.detail}
          </Text>
        )}
      </>
    ),
  },
  {
    key: 'curtailments',
    header: 'Curtailments',
    render: (e) =>
      e.curtailmentIds.length ? (
        <Group gap={6}>
          {e.curtailmentIds.map((id) => (
            <Anchor key={id} component={Link} to={`/virtual-power-plants/feed-in-management/${id}`}>
              {id}
            </Anchor>
          ))}
        </Group>
      ) : (
        <Text c="dimmed">None</Text>
      ),
  },
  { key: 'updated', header: 'Updated', render: (e) => when.format(e.updatedAt * 1000) },
];

const venColumns = (vpps: OpenadrOverview['vpps']): Column<OpenadrOverview['vens'][number]>[] => [
  { key: 'ven', header: 'VEN', render: (v) => v.venName },
  { key: 'key', header: 'API key', render: (v) => v.keyName ?? '—' },
  {
    key: 'resources',
    header: 'Resources',
    render: (v) => (v.resources.length ? v.resources.map((r) => r.resourceName).join(', ') : <Text c="dimmed">None</Text>),
  },
  { key: 'vpps', header: 'VPPs whose events it receives', width: 260, render: (v) => <VenVpps ven={v} vpps={vpps} /> },
  { key: 'registered', header: 'Registered', render: (v) => when.format(v.createdAt * 1000) },
];

const SUBSCRIPTION_COLUMNS: Column<OpenadrOverview['subscriptions'][number]>[] = [
  { key: 'client', header: 'Client', render: (s) => s.clientName },
  { key: 'program', header: 'Program', render: (s) => s.programID },
  { key: 'objects', header: 'Objects', render: (s) => s.objects.join(', ') },
  { key: 'callback', header: 'Callback', render: (s) => <span style={{ wordBreak: 'break-all' }}>{s.callbackUrls.join(' ')}</span> },
  {
    key: 'status',
    header: 'Status',
    render: (s) => (
      <Badge color={s.status === 'ACTIVE' ? 'teal' : 'red'} variant="light">
        {s.status}
      </Badge>
    ),
  },
  {
    key: 'delivery',
    header: 'Last delivery',
    render: (s) => (s.lastDeliveryAt ? `${when.format(s.lastDeliveryAt * 1000)}: ${s.lastDeliveryResult ?? ''}` : <Text c="dimmed">None yet</Text>),
  },
];

/** How the console's VEN stands with the network VTN: its address, names, notifications, polls and last error. */
function VtnConnection({ ven }: { ven: NonNullable<OpenadrOverview['ven']> }) {
  return (
    <Table variant="vertical" aria-label="Network VTN connection" withTableBorder={false}>
      <Table.Tbody>
        <Table.Tr>
          <Table.Th w={180}>VTN</Table.Th>
          <Table.Td style={{ wordBreak: 'break-all' }}>{ven.vtnUrl}</Table.Td>
        </Table.Tr>
        <Table.Tr>
          <Table.Th>VEN name</Table.Th>
          <Table.Td>
            {ven.venName}
            {ven.venID ? ` (${ven.venID})` : ''}
          </Table.Td>
        </Table.Tr>
        <Table.Tr>
          <Table.Th>Notifications</Table.Th>
          <Table.Td>{ven.subscribed ? 'Subscribed: the VTN notifies the console' : 'Polling only (no PUBLIC_URL)'}</Table.Td>
        </Table.Tr>
        <Table.Tr>
          <Table.Th>Last poll</Table.Th>
          <Table.Td>{ven.lastPollAt ? when.format(ven.lastPollAt * 1000) : 'None yet'}</Table.Td>
        </Table.Tr>
        <Table.Tr>
          <Table.Th>Last success</Table.Th>
          <Table.Td>{ven.lastOkAt ? when.format(ven.lastOkAt * 1000) : 'None yet'}</Table.Td>
        </Table.Tr>
        {ven.lastError && (
          <Table.Tr>
            <Table.Th>Last error</Table.Th>
            <Table.Td c="red">{ven.lastError}</Table.Td>
          </Table.Tr>
        )}
      </Table.Tbody>
    </Table>
  );
}

/** The console as a VEN of a network's VTN (OPENADR_VTN_URL): the connection and the latest events received. */
function NetworkVtn({ ven }: { ven: NonNullable<OpenadrOverview['ven']> }) {
  const connected = ven.lastError === null && ven.lastOkAt !== null;
  return (
    <Card withBorder>
      <Group justify="space-between" mb="xs">
        <Title order={4}>Network VTN</Title>
        <Badge color={connected ? 'teal' : ven.lastError ? 'red' : 'gray'} variant="light">
          {connected ? 'Connected' : ven.lastError ? 'Not connected' : 'Not polled yet'}
        </Badge>
      </Group>
      <Text size="sm" c="dimmed" mb="xs">
        The console is a VEN of this VTN: its export and generation limits targeted at the console become curtailments of the VPPs they name or cover.
      </Text>
      <VtnConnection ven={ven} />
      <Title order={5} mt="md" mb="xs">
        Last events received
      </Title>
      {!ven.events.length ? (
        <Text c="dimmed">No capacity limit has been received.</Text>
      ) : (
        <ListTable label="Events received from the VTN" columns={RECEIVED_COLUMNS} rows={ven.events} rowKey={(e) => e.eventID} striped />
      )}
    </Card>
  );
}

/** Where OpenADR 3 clients reach the console's own VTN, with a button to copy it. */
function VtnAddress({ baseUrl }: { baseUrl: string | undefined }) {
  return (
    <Card withBorder>
      <Title order={4}>Virtual Top Node</Title>
      <Text size="sm" c="dimmed" mb="xs">
        OpenADR 3.0.1 clients reach the console here. Their token comes from auth/token with an API key given OpenADR scopes (client_id: the key's id,
        client_secret: the key).
      </Text>
      <Group gap="xs">
        <Code aria-label="VTN base URL">{baseUrl ?? ''}</Code>
        {baseUrl !== undefined && (
          <CopyButton value={baseUrl}>
            {({ copied, copy }) => (
              <Button size="xs" variant="light" onClick={copy}>
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
        )}
      </Group>
    </Card>
  );
}

/** A titled card holding a list, or what to say once the list has come back empty. */
function ListCard<T>({ title, rows, empty, children }: { title: string; rows: T[] | undefined; empty: string; children: ReactNode }) {
  return (
    <Card withBorder>
      <Title order={4} mb="xs">
        {title}
      </Title>
      {rows && !rows.length ? <Text c="dimmed">{empty}</Text> : children}
    </Card>
  );
}

/** The organisation's OpenADR 3 settings: the VTN's address, the VENs and the subscriptions, and the network VTN it is a VEN of. */
export function OpenadrPage() {
  const { data } = useOpenadrOverview();
  return (
    <PageLayout title="OpenADR" breadcrumb={[{ label: 'My Reposit' }, { label: 'OpenADR' }]} permission={OPENADR_PERMISSION}>
      <Stack gap="md">
        <VtnAddress baseUrl={data?.baseUrl} />
        <ListCard title="VENs" rows={data?.vens} empty="No VEN has registered yet.">
          <ListTable label="VENs" columns={venColumns(data?.vpps ?? [])} rows={data?.vens ?? []} rowKey={(v) => v.id} striped />
        </ListCard>
        <ListCard title="Subscriptions" rows={data?.subscriptions} empty="No client has subscribed yet.">
          <ListTable label="Subscriptions" columns={SUBSCRIPTION_COLUMNS} rows={data?.subscriptions ?? []} rowKey={(s) => s.id} striped />
        </ListCard>
        {data?.ven && <NetworkVtn ven={data.ven} />}
      </Stack>
    </PageLayout>
  );
}
