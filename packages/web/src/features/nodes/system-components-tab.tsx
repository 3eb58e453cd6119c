import { Alert, Badge, Button, Card, Code, Group, Image, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { type DeviceCredential, NODE_DEVICE_EDIT } from '@vpp/shared/devices/endpoints';
import { formatDateTime } from '@vpp/shared/format';
import type { MeterGroup, NodeDetail } from '@vpp/shared/nodes/schemas';
import { useState } from 'react';
import { usePermission } from '../../lib/permission-gate.tsx';
import { toast } from '../../lib/toasts.ts';
import { useIssueDeviceCredential, useNodeDevice, usePortalToken } from './api.ts';

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

/** The System Components tab: each energy system's inverter and battery, the meters, the Reposit unit. */
export function SystemComponentsTab({ node }: { node: NodeDetail }) {
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
      <DeviceCard node={node} />
    </Stack>
  );
}

/**
 * The node's device on the wire (docs/devices.md): its MQTT username, where it connects, the last
 * message the console refused from it, and for administrators the credential, whose secret shows once.
 */
function DeviceCard({ node }: { node: NodeDetail }) {
  const device = useNodeDevice(node.id);
  const canIssue = usePermission(NODE_DEVICE_EDIT);
  const issue = useIssueDeviceCredential(node.id);
  const [issued, setIssued] = useState<DeviceCredential | null>(null);
  const d = device.data?.data;
  if (!d) return null;
  return (
    <Card withBorder>
      <Title order={3} size="h5" mb="xs">
        Device connection
      </Title>
      <Text size="sm">MQTT username: {d.username}</Text>
      <Text size="sm">Broker: {d.broker.url ?? (d.broker.port ? `port ${d.broker.port} of this console` : 'none')}</Text>
      <Text size="sm">Credential: {d.credentialIssuedAt === null ? 'not issued' : `issued ${formatDateTime(d.credentialIssuedAt, node.timezone)}`}</Text>
      <Text size="sm">Last refused message: {d.lastRejected ? `${formatDateTime(d.lastRejected.ts, node.timezone)}: ${d.lastRejected.reason}` : 'none'}</Text>
      {d.droppedCount > 0 && <Text size="sm">Messages dropped by the rate limit: {d.droppedCount}</Text>}
      {issued && (
        <Alert color="yellow" mt="xs" title="Device secret (shown once)">
          <Text size="sm">
            Username <Code>{issued.username}</Code>, secret <Code>{issued.secret}</Code>
          </Text>
          <Text size="xs" c="dimmed">
            Copy it into the device now: the console keeps only its hash.
          </Text>
        </Alert>
      )}
      {canIssue && (
        <Button
          size="xs"
          variant="light"
          mt="xs"
          w="fit-content"
          loading={issue.isPending}
          onClick={() => issue.mutate(undefined, { onSuccess: (r) => setIssued(r.data) })}
        >
          {d.credentialIssuedAt === null ? 'Issue credential' : 'Rotate credential'}
        </Button>
      )}
    </Card>
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
