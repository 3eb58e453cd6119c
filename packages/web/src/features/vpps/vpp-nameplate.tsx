import { Card, Group, SimpleGrid, Text } from '@mantine/core';
import { formatEnergy, formatPower } from '@vpp/shared/format';
import type { Nameplate } from '@vpp/shared/nodes/schemas';
import { enrolmentOf, storedVppKind, VPP_KIND_LABELS } from '@vpp/shared/vpps/rules';
import type { Powerstation } from '@vpp/shared/vpps/schemas';

/** A VPP's filter in words: its postcodes, its state or its DUID (none for a manual VPP). */
export function vppFilterText(vpp: Powerstation): string {
  const kind = storedVppKind({ type: vpp.type, state: vpp.filters.state });
  if (kind === 'POSTCODE') return vpp.filters.postcodes.join(', ');
  if (kind === 'STATE') return vpp.filters.state ?? '';
  if (kind === 'FCAS') return vpp.duid ?? '';
  return '';
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <Card withBorder padding="sm" radius="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="lg" fw={600}>
        {value}
      </Text>
    </Card>
  );
}

/** The nameplate summary: nodes, battery capacity and power, inverter power. */
export function NameplateSummary({ namePlate }: { namePlate: Nameplate }) {
  return (
    <SimpleGrid cols={{ base: 2, md: 4 }} aria-label="Nameplate">
      <Stat label="Nodes" value={String(namePlate.totalDeployments)} />
      <Stat label="Battery capacity" value={formatEnergy(namePlate.batteryCapacity)} />
      <Stat label="Battery power" value={formatPower(namePlate.batteryPower)} />
      <Stat label="Inverter power" value={formatPower(namePlate.inverterPower)} />
    </SimpleGrid>
  );
}

/** The VPP's type, enrolment and rule above its nameplate. */
export function VppRule({ vpp }: { vpp: Powerstation }) {
  const kind = storedVppKind({ type: vpp.type, state: vpp.filters.state });
  return (
    <Group gap="lg">
      <Text size="sm">
        <Text span c="dimmed">
          Type:{' '}
        </Text>
        {VPP_KIND_LABELS[kind]}
      </Text>
      <Text size="sm">
        <Text span c="dimmed">
          Enrolment:{' '}
        </Text>
        {enrolmentOf(kind)}
      </Text>
      {kind !== 'INDIVIDUAL_NODES' && (
        <Text size="sm">
          <Text span c="dimmed">
            {kind === 'POSTCODE' ? 'Postcodes' : kind === 'STATE' ? 'State' : 'DUID'}:{' '}
          </Text>
          {vppFilterText(vpp)}
        </Text>
      )}
    </Group>
  );
}
