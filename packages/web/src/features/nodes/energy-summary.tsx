import { Paper, SimpleGrid, Text } from '@mantine/core';
import { formatEnergy } from '@vpp/shared/format';

/** The period's energy: import, export, generation and consumption. */
export function EnergySummary({
  summary,
}: {
  summary: { meterImport?: number; meterExport?: number; solarGeneration?: number; houseConsumption?: number } | undefined;
}) {
  return (
    <SimpleGrid cols={{ base: 2, md: 4 }} aria-label="Summary">
      {(
        [
          ['Import', summary?.meterImport],
          ['Export', summary?.meterExport],
          ['Generation', summary?.solarGeneration],
          ['Consumption', summary?.houseConsumption],
        ] as const
      ).map(([label, v]) => (
        <Paper withBorder p="sm" key={label}>
          <Text size="xs" c="dimmed">
            {label}
          </Text>
          <Text fw={600}>{formatEnergy(v)}</Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}
