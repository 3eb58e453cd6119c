import { ActionIcon, Anchor, Badge, Button, Card, Group, Image, SimpleGrid, Stack, Table, Tabs, Text, TextInput, Title } from '@mantine/core';
import { IconArrowLeft, IconPencil } from '@tabler/icons-react';
import { formatDateTime, formatDuration, type MeterGroup, type NodeDetail } from '@vpp/shared';
import { useMemo, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { DataTable, usePaging } from '../../components/data-table.tsx';
import { NodeMap, useMapHeight } from '../../components/node-map.tsx';
import { NodeStatusBadge } from '../../components/node-status-badge.tsx';
import { PageLayout } from '../../components/page-layout.tsx';
import { usePermission } from '../../lib/permission-gate.tsx';
import { toast } from '../../lib/toasts.ts';
import { useNodeDetail, useNodeEvents, usePortalToken, useSaveSiteLabel } from './api.ts';
import { MonitoringTab } from './monitoring-tab.tsx';

const TABS = ['MONITORING', 'SYSTEM_COMPONENTS', 'LOCATION', 'EVENT_LOG'] as const;

/** Node detail (/fleet-monitoring/nodes/{id}): site label and the four tabs; data refreshes every 10 s. */
export function NodeDetailPage() {
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const node = useNodeDetail(id);
  const tab = TABS.find((t) => t === params.get('tab')) ?? 'MONITORING';
  const title = node.data ? (node.data.siteLabel ?? `Node ${id}`) : `Node ${id}`;
  const canViewData = usePermission('fleet.node.data.view');

  return (
    <PageLayout
      title={title}
      permission="fleet.node.any"
      breadcrumb={[{ label: 'Fleet Monitoring', to: '/fleet-monitoring/nodes?limit=10&offset=0' }, { label: `Node ${id}` }]}
    >
      <Anchor component="button" onClick={() => (window.history.length > 1 ? navigate(-1) : navigate('/fleet-monitoring/nodes'))} size="sm" w="fit-content">
        <Group gap={4}>
          <IconArrowLeft size={14} /> Go Back
        </Group>
      </Anchor>
      {node.data && (
        <Stack gap="md">
          <Group gap="md">
            <SiteLabel node={node.data} />
            <NodeStatusBadge node={node.data} timeZone={node.data.timezone} />
            <Text size="sm" c="dimmed">
              {node.data.address.text}
            </Text>
          </Group>
          <Tabs value={tab} onChange={(v) => setParams((p) => withTab(p, v))} keepMounted={false}>
            <Tabs.List>
              <Tabs.Tab value="MONITORING">Monitoring</Tabs.Tab>
              <Tabs.Tab value="SYSTEM_COMPONENTS">System Components</Tabs.Tab>
              <Tabs.Tab value="LOCATION">Location</Tabs.Tab>
              <Tabs.Tab value="EVENT_LOG">Event Log</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="MONITORING" pt="md">
              {canViewData ? (
                <MonitoringTab node={node.data} />
              ) : (
                <Text c="dimmed">Viewing this node's monitoring graph and energy summary needs the Node data permission.</Text>
              )}
            </Tabs.Panel>
            <Tabs.Panel value="SYSTEM_COMPONENTS" pt="md">
              <SystemComponents node={node.data} />
            </Tabs.Panel>
            <Tabs.Panel value="LOCATION" pt="md">
              <Location node={node.data} />
            </Tabs.Panel>
            <Tabs.Panel value="EVENT_LOG" pt="md">
              <EventLog node={node.data} />
            </Tabs.Panel>
          </Tabs>
        </Stack>
      )}
    </PageLayout>
  );
}

/** The query with only the tab changed: the graph settings and paging stay, so going back to Monitoring keeps them. */
function withTab(params: URLSearchParams, tab: string | null): URLSearchParams {
  const next = new URLSearchParams(params);
  if (!tab || tab === 'MONITORING') next.delete('tab');
  else next.set('tab', tab);
  return next;
}

/** The inline-editable site label, at most 100 characters. */
function SiteLabel({ node }: { node: NodeDetail }) {
  const save = useSaveSiteLabel(node.id);
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(node.siteLabel ?? '');
  if (!editing) {
    return (
      <Group gap={6}>
        <Text fw={500} c={node.siteLabel ? undefined : 'dimmed'}>
          {node.siteLabel ?? 'This site has no label.'}
        </Text>
        <ActionIcon
          variant="subtle"
          aria-label="Edit site label"
          onClick={() => {
            setValue(node.siteLabel ?? '');
            setEditing(true);
          }}
        >
          <IconPencil size={16} />
        </ActionIcon>
      </Group>
    );
  }
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(value.trim(), { onSuccess: () => setEditing(false) });
      }}
    >
      <Group gap="xs">
        <TextInput
          aria-label="Site label"
          value={value}
          maxLength={100}
          onChange={(e) => setValue(e.currentTarget.value)}
          w={320}
          description={`${value.length}/100`}
          autoFocus
        />
        <Button type="submit" size="xs" loading={save.isPending}>
          Save
        </Button>
        <Button size="xs" variant="default" onClick={() => setEditing(false)}>
          Cancel
        </Button>
      </Group>
    </form>
  );
}

function Meters({ title, groups }: { title: string; groups: MeterGroup[] }) {
  if (!groups.length) return null;
  return (
    <Card withBorder>
      <Title order={3} size="h5" mb="xs">
        {title}
      </Title>
      {groups.map((g) => (
        <Stack key={g.id} gap={2} mb="xs">
          <Text size="sm" fw={500}>
            {g.name}: {g.manufacturer} {g.model}
          </Text>
          <Text size="xs" c="dimmed">
            Meters: {g.meters.map((m) => m.hwid).join(', ')}
          </Text>
        </Stack>
      ))}
    </Card>
  );
}

function SystemComponents({ node }: { node: NodeDetail }) {
  return (
    <Stack gap="md">
      {node.energySystems.map((es) => (
        <SimpleGrid cols={{ base: 1, md: 2 }} key={es.id}>
          <Card withBorder>
            <Group align="start" wrap="nowrap">
              <Image src={es.inverter.imageUrl} alt="" w={60} />
              <Stack gap={2}>
                <Title order={3} size="h5">
                  Inverter
                </Title>
                <Text size="sm">{es.inverter.name}</Text>
                <Text size="sm">Max input: {Math.abs(es.inverter.minPower).toFixed(1)} kW</Text>
                <Text size="sm">Max output: {es.inverter.maxPower.toFixed(1)} kW</Text>
                <Text size="sm">Phases: {es.inverter.phases}</Text>
                {es.inverter.hasWebPortal && <WebPortalButton nodeId={node.id} inverterId={es.inverter.id} />}
              </Stack>
            </Group>
          </Card>
          <Card withBorder>
            <Group align="start" wrap="nowrap">
              <Image src={es.battery?.imageUrl ?? '/equipment/battery.svg'} alt="" w={60} style={{ opacity: es.battery ? 1 : 0.3 }} />
              <Stack gap={2}>
                <Title order={3} size="h5">
                  Battery
                </Title>
                {es.battery ? (
                  <>
                    <Text size="sm">{es.battery.name}</Text>
                    <Text size="sm">Capacity: {es.battery.capacity.toFixed(2)} kWh</Text>
                    <Text size="sm">Usable capacity: {es.battery.usableCapacity.toFixed(2)} kWh</Text>
                  </>
                ) : (
                  <Text size="sm" c="dimmed">
                    No battery
                  </Text>
                )}
              </Stack>
            </Group>
          </Card>
        </SimpleGrid>
      ))}
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <Meters title="Grid meters" groups={node.gridMeters} />
        <Meters title="Solar meters" groups={node.solarMeters} />
        <Meters title="Sub meters" groups={node.subMeterGroups} />
      </SimpleGrid>
      <Card withBorder>
        <Title order={3} size="h5" mb="xs">
          Reposit unit
        </Title>
        <Text size="sm">Serial number: {node.reposit.serialNumber}</Text>
        <Text size="sm">Product: {node.reposit.product}</Text>
        <Group gap="xs">
          <Text size="sm">State:</Text>
          <Badge variant="light" color={node.reposit.state === 'COMMISSIONED' ? 'green' : 'gray'} tt="none">
            {node.reposit.state === 'COMMISSIONED' ? 'Commissioned' : 'Not Commissioned'}
          </Badge>
        </Group>
      </Card>
    </Stack>
  );
}

/** Opens the inverter's web portal in a new window with a single-use token (needs fleet.node.inverter.portal). */
function WebPortalButton({ nodeId, inverterId }: { nodeId: number; inverterId: string }) {
  const allowed = usePermission('fleet.node.inverter.portal');
  const portal = usePortalToken();
  if (!allowed) return null;
  return (
    <Button
      size="xs"
      variant="light"
      mt="xs"
      w="fit-content"
      loading={portal.isPending}
      onClick={() => {
        // Open the window now, while the click still counts as the user's, and point it at the portal once the token arrives.
        const win = window.open('about:blank', '_blank');
        portal.mutate(
          { deployment: nodeId, inverter: inverterId },
          {
            onSuccess: (r) => {
              const url = `${r.portalUrl}?${new URLSearchParams({ token: r.inverterPortalToken, auth: 'vpp-console' })}`;
              if (win) win.location.href = url;
              else window.open(url, '_blank');
            },
            onError: (err) => {
              win?.close();
              toast('error', 'Failed to access inverter portal.', err.message);
            },
          },
        );
      }}
    >
      Web Portal
    </Button>
  );
}

function Location({ node }: { node: NodeDetail }) {
  const height = useMapHeight();
  const { id, displayStatus, siteLabel } = node;
  const { lat, lng } = node.address;
  // The detail refetches every 10 s: the map gets a new point only when something it shows changes.
  const nodes = useMemo(() => [{ id, lat, lng, displayStatus, siteLabel }], [id, lat, lng, displayStatus, siteLabel]);
  return (
    <Stack gap="md">
      <Table w="fit-content" withRowBorders={false}>
        <Table.Tbody>
          <Table.Tr>
            <Table.Th>NMI</Table.Th>
            <Table.Td>{node.network.nmi}</Table.Td>
          </Table.Tr>
          {node.network.network !== null && (
            <Table.Tr>
              <Table.Th>Network</Table.Th>
              <Table.Td>{node.network.network}</Table.Td>
            </Table.Tr>
          )}
          <Table.Tr>
            <Table.Th>Install address</Table.Th>
            <Table.Td>{node.address.text}</Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      <NodeMap nodes={nodes} zoom={13} height={height} label="Node location" />
    </Stack>
  );
}

function EventLog({ node }: { node: NodeDetail }) {
  const { limit, offset, setPage } = usePaging();
  const events = useNodeEvents(node.id, limit, offset);
  return (
    <DataTable
      label="Event log"
      columns={[
        { key: 'ts', header: 'Date/time', render: (e) => formatDateTime(e.ts, node.timezone) },
        {
          key: 'type',
          header: 'Event',
          render: (e) =>
            e.eventType
              .replaceAll('_', ' ')
              .toLowerCase()
              .replace(/^./, (c) => c.toUpperCase()),
        },
        { key: 'description', header: 'Description', render: (e) => e.description },
        { key: 'duration', header: 'Duration', render: (e) => formatDuration(e.duration) },
      ]}
      rows={events.data?.data}
      rowKey={(e) => e.id}
      total={events.data?.meta.total ?? 0}
      limit={limit}
      offset={offset}
      onPage={setPage}
      empty="There are no events for this node"
      loading={events.isLoading}
    />
  );
}
