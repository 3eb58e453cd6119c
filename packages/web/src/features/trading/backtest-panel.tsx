import { Button, Group, Progress, Stack, Table, Text, Title } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { formatDateTime } from '@vpp/shared/format';
import { BACKTEST_MAX_DAYS, BACKTEST_MESSAGES, type Backtest, type StrategyFigures } from '@vpp/shared/trading/schemas';
import { useState } from 'react';
import { useTimeZone } from '../../lib/account.ts';
import { useBacktests, useStartBacktest } from './api.ts';

const money = (v: number) => v.toLocaleString('en-AU', { style: 'currency', currency: 'AUD' });
const mwh = (kwh: number) => `${(kwh / 1000).toLocaleString('en-AU', { maximumFractionDigits: 1 })} MWh`;
const DAY_MS = 86_400_000;
/** A market day (UTC+10) as YYYY-MM-DD, `back` days before today's. */
const marketDay = (back: number) => new Date(Date.now() + 10 * 3_600_000 - back * DAY_MS).toISOString().slice(0, 10);
const daysIn = (first: string, last: string) => Math.round((Date.parse(last) - Date.parse(first)) / DAY_MS) + 1;

/** Why the period asked for cannot be backtested, in the server's words; null when it can. */
function periodError(first: string, last: string): string | null {
  if (!first || !last) return BACKTEST_MESSAGES.day;
  if (last < first) return BACKTEST_MESSAGES.order;
  if (daysIn(first, last) > BACKTEST_MAX_DAYS) return BACKTEST_MESSAGES.tooLong;
  if (last >= marketDay(0)) return BACKTEST_MESSAGES.notEnded;
  return null;
}

function Figures({ b }: { b: Backtest }) {
  const r = b.result;
  if (!r) return null;
  const row = (s: StrategyFigures) => (
    <Table.Tr key={s.name}>
      <Table.Td>{s.name === 'optimiser' ? 'Optimiser' : s.name === 'price threshold' ? 'Price threshold' : 'Evening window'}</Table.Td>
      <Table.Td ta="right">{money(s.revenue)}</Table.Td>
      <Table.Td ta="right">{mwh(s.dischargedKwh)}</Table.Td>
      <Table.Td ta="right">{mwh(s.chargedKwh)}</Table.Td>
      <Table.Td ta="right">{s.cycles.toFixed(1)}</Table.Td>
      <Table.Td ta="right">{s.maxDayCycles.toFixed(2)}</Table.Td>
      <Table.Td ta="right">{Math.round(s.minStoredKwh).toLocaleString('en-AU')} kWh</Table.Td>
    </Table.Tr>
  );
  return (
    <Stack gap="xs">
      <Table.ScrollContainer minWidth={640}>
        <Table striped aria-label={`Backtest ${b.firstDay} to ${b.lastDay}`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Strategy</Table.Th>
              <Table.Th ta="right">Revenue</Table.Th>
              <Table.Th ta="right">Discharged</Table.Th>
              <Table.Th ta="right">Charged</Table.Th>
              <Table.Th ta="right">Cycles</Table.Th>
              <Table.Th ta="right">Most in a day</Table.Th>
              <Table.Th ta="right">Lowest store</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>{[r.optimiser, r.threshold, r.evening].map(row)}</Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Text size="sm">
        {r.gainOverBestNaive === null
          ? 'Neither naive rule earned anything over the period.'
          : r.gainOverBestNaive >= 0
            ? `The optimiser earned ${(r.gainOverBestNaive * 100).toFixed(1)} % more than the better naive rule.`
            : `The optimiser earned ${(-r.gainOverBestNaive * 100).toFixed(1)} % less than the better naive rule.`}{' '}
        {`${r.region}, a store of ${Math.round(r.capacityKwh).toLocaleString('en-AU')} kWh and ${Math.round(r.powerKw).toLocaleString('en-AU')} kW, never below ${Math.round(r.floorKwh).toLocaleString('en-AU')} kWh; ${r.plans} plans, one every ${r.replanMinutes} minutes.`}
      </Text>
    </Stack>
  );
}

function BacktestItem({ b, zone }: { b: Backtest; zone: string }) {
  return (
    <Stack gap={4} data-testid="backtest">
      <Text fw={600}>
        {b.firstDay} to {b.lastDay}
        <Text span c="dimmed" size="sm" fw={400}>
          {` · asked for by ${b.requestedBy}, ${formatDateTime(b.requestedAt, zone)}`}
        </Text>
      </Text>
      {b.status === 'RUNNING' && (
        <Group gap="sm">
          <Progress value={b.progress * 100} w={240} aria-label="Backtest progress" />
          <Text size="sm">Running: {Math.round(b.progress * 100)} %</Text>
        </Group>
      )}
      {b.status === 'FAILED' && <Text c="red">{b.error}</Text>}
      {b.status === 'DONE' && <Figures b={b} />}
    </Stack>
  );
}

/**
 * The backtest of the VPP's policy (issue 35 item 5): a period of ended market days replayed at the
 * actual prices, the optimiser on the forecasts as issued against the two naive rules. It runs on the
 * server in the background; the list shows its progress, then its figures.
 */
export function BacktestPanel({ id }: { id: number }) {
  const zone = useTimeZone();
  const [first, setFirst] = useState(marketDay(BACKTEST_MAX_DAYS));
  const [last, setLast] = useState(marketDay(1));
  const list = useBacktests(id);
  const start = useStartBacktest(id);
  const error = periodError(first, last);
  const running = list.data?.some((b) => b.status === 'RUNNING') ?? false;
  return (
    <Stack gap="sm">
      <Title order={3} size="h5">
        Backtest
      </Title>
      <Text size="sm" c="dimmed">
        Replays a period of actual prices against this VPP's batteries and its policy: the optimiser planning on the price forecasts as they were issued,
        against discharging above a fixed price and a fixed evening window. At most {BACKTEST_MAX_DAYS} days that have ended.
      </Text>
      <Group align="flex-end">
        <DatePickerInput
          label="First day"
          valueFormat="DD/MM/YYYY"
          value={first || null}
          maxDate={last || undefined}
          onChange={(v) => setFirst(v ? String(v).slice(0, 10) : '')}
          w={160}
          popoverProps={{ withinPortal: true }}
        />
        <DatePickerInput
          label="Last day"
          valueFormat="DD/MM/YYYY"
          value={last || null}
          minDate={first || undefined}
          maxDate={marketDay(1)}
          onChange={(v) => setLast(v ? String(v).slice(0, 10) : '')}
          w={160}
          popoverProps={{ withinPortal: true }}
        />
        <Button disabled={error !== null || running} loading={start.isPending} onClick={() => start.mutate({ firstDay: first, lastDay: last })}>
          Run Backtest
        </Button>
      </Group>
      {error && first && last && (
        <Text c="red" size="sm">
          {error}
        </Text>
      )}
      {list.data?.length === 0 && <Text c="dimmed">No backtests yet.</Text>}
      {list.data?.map((b) => (
        <BacktestItem key={b.id} b={b} zone={zone} />
      ))}
    </Stack>
  );
}
