import { Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { CUSTOMER_MESSAGES } from '@vpp/shared/customers/messages';
import type { BillEstimate, BillLine } from '@vpp/shared/customers/schemas';
import { RATE_DECIMALS } from '@vpp/shared/plans/rules';
import { formatCents, formatDay, formatMonth } from './customer-format.ts';

const quantity = (l: BillLine) => (l.unit === '%' ? `${l.quantity} %` : `${Number(l.quantity.toFixed(2))} ${l.unit}`);
/** A line's rate: $ per unit with 4 decimals (spec 3 §9), a discount as its percent. */
const rate = (l: BillLine) => (l.unit === '%' ? '' : `$${l.rate.toFixed(RATE_DECIMALS)}/${l.unit === 'days' ? 'day' : l.unit === 'kW' ? 'kW/day' : l.unit}`);

/** One month's bill: its lines, the subtotal, GST shown separately, and the total; how much of the month had meter data. */
function MonthBill({ title, bill }: { title: string; bill: BillEstimate | null }) {
  return (
    <Paper withBorder p="sm" component="section" aria-label={title}>
      <Title order={3} size="h5">
        {title}
      </Title>
      {!bill ? (
        <Text c="dimmed" size="sm" mt="xs">
          {CUSTOMER_MESSAGES.billNoData}
        </Text>
      ) : (
        <Stack gap="xs" mt={4}>
          <Text size="xs" c="dimmed">
            {`${formatMonth(bill.month)}${bill.partial ? ' so far' : ''} · ${bill.importKwh.toFixed(1)} kWh imported, ${bill.exportKwh.toFixed(1)} kWh exported${
              bill.peakDemandKw === null ? '' : ` · peak demand ${bill.peakDemandKw.toFixed(2)} kW`
            } · metered data for ${Math.round(bill.coverage * 100)} % of the month${bill.partial ? ' so far' : ''}`}
          </Text>
          <Table aria-label={`${title} lines`}>
            <Table.Tbody>
              {bill.lines.map((l) => (
                <Table.Tr key={`${l.kind}-${l.label}`}>
                  <Table.Td>
                    <Text size="sm">{l.label}</Text>
                    <Text size="xs" c="dimmed">
                      {l.unit === '%' ? quantity(l) : `${quantity(l)} × ${rate(l)}`}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right">{formatCents(l.amountCents)}</Table.Td>
                </Table.Tr>
              ))}
              <Table.Tr>
                <Table.Th>Subtotal (excl. GST)</Table.Th>
                <Table.Td ta="right">{formatCents(bill.subtotalCents)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>GST (10 %)</Table.Th>
                <Table.Td ta="right">{formatCents(bill.gstCents)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Total (incl. GST)</Table.Th>
                <Table.Td ta="right" fw={700}>
                  {formatCents(bill.totalCents)}
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          <Table aria-label={`${title} grid credits`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Grid credits of the same days</Table.Th>
                <Table.Th ta="right">Credit</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {bill.gridCredits.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={2}>
                    <Text size="sm" c="dimmed">
                      {CUSTOMER_MESSAGES.noGridCredits}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ) : (
                bill.gridCredits.map((c) => (
                  <Table.Tr key={`${c.eventKind}-${c.eventId}-${c.day}-${c.type}`}>
                    <Table.Td>
                      <Text size="sm">{`${c.event}, ${formatDay(c.day)}`}</Text>
                      <Text size="xs" c="dimmed">
                        {`${c.type} · ${c.amount < 0 ? `${Number((-c.amount).toFixed(3))} kWh charged` : `${Number(c.amount.toFixed(3))} kWh given`} × $${c.rate.toFixed(RATE_DECIMALS)}/kWh`}
                      </Text>
                    </Table.Td>
                    <Table.Td ta="right">{formatCents(0 - c.cents)}</Table.Td>
                  </Table.Tr>
                ))
              )}
              <Table.Tr>
                <Table.Th>Total after grid credits</Table.Th>
                <Table.Td ta="right" fw={700}>
                  {formatCents(bill.netCents)}
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        </Stack>
      )}
    </Paper>
  );
}

/** The bill estimate of the customer detail: this month so far and last month, under the customer's plan. */
export function BillEstimateView({ current, last }: { current: BillEstimate | null; last: BillEstimate | null }) {
  return (
    <Stack gap="xs">
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <MonthBill title="This month" bill={current} />
        <MonthBill title="Last month" bill={last} />
      </SimpleGrid>
      <Group>
        <Text size="xs" c="dimmed">
          Estimated from the meter's 5-minute import and export in the customer's local time. Plan prices exclude GST; GST applies to charges, not to feed-in
          credits. Grid credits pay a dispatch's energy at the spot price beyond the feed-in tariff the bill already pays for it, and are never a charge.
        </Text>
      </Group>
    </Stack>
  );
}
