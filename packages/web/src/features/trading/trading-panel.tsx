import { Alert, Button, Group, NumberInput, SegmentedControl, SimpleGrid, Stack, Switch, Text, Title } from '@mantine/core';
import { DISPATCH_EDIT } from '@vpp/shared/dispatches/permissions';
import { formatDateTime } from '@vpp/shared/format';
import { TRADING_LIMITS, type TradingPolicy, type TradingState } from '@vpp/shared/trading/schemas';
import { useEffect, useState } from 'react';
import { LoadingSkeleton } from '../../components/loading-skeleton.tsx';
import { TimeSeriesChart } from '../../components/time-series-chart.tsx';
import { useAccount } from '../../lib/account.ts';
import { usePermission } from '../../lib/permission-gate.tsx';
import { useSetTradingPolicy, useTrading } from './api.ts';
import { BacktestPanel } from './backtest-panel.tsx';

const money = (v: number) => v.toLocaleString('en-AU', { style: 'currency', currency: 'AUD' });

/** The operator's limits: mode, hours, power, the lowest state of charge, cycles, wear and grid charging. */
function PolicyForm({ id, saved }: { id: number; saved: TradingPolicy }) {
  const [p, setP] = useState(saved);
  useEffect(() => setP(saved), [saved]);
  const canEdit = usePermission(DISPATCH_EDIT);
  const save = useSetTradingPolicy(id);
  const set = <K extends keyof TradingPolicy>(k: K, v: TradingPolicy[K]) => setP((x) => ({ ...x, [k]: v }));
  const num = (v: string | number, fallback: number) => (typeof v === 'number' ? v : v === '' ? fallback : Number(v));
  return (
    <Stack
      gap="sm"
      component="form"
      aria-label="Trading policy"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(p);
      }}
    >
      <SegmentedControl
        aria-label="Trading"
        disabled={!canEdit}
        value={p.mode}
        onChange={(v) => set('mode', v as TradingPolicy['mode'])}
        data={[
          { value: 'OFF', label: 'Off' },
          { value: 'AUTOMATIC', label: 'Automatic' },
        ]}
        w={240}
      />
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
        <NumberInput label="From hour (market time)" min={0} max={23} value={p.fromHour} onChange={(v) => set('fromHour', num(v, 0))} disabled={!canEdit} />
        <NumberInput label="To hour (market time)" min={1} max={24} value={p.toHour} onChange={(v) => set('toHour', num(v, 24))} disabled={!canEdit} />
        <NumberInput
          label="Most power (kW)"
          description="Empty for the VPP's whole power"
          min={TRADING_LIMITS.maxPowerKw.min}
          value={p.maxPowerKw ?? ''}
          onChange={(v) => set('maxPowerKw', v === '' ? null : num(v, 0))}
          disabled={!canEdit}
        />
        <NumberInput
          label="Lowest state of charge (%)"
          description="Each customer's own reserve binds when higher"
          min={0}
          max={100}
          value={p.minSocPct}
          onChange={(v) => set('minSocPct', num(v, 0))}
          disabled={!canEdit}
        />
        <NumberInput
          label="Most cycles a day"
          min={0.1}
          max={5}
          step={0.1}
          decimalScale={2}
          value={p.maxCyclesPerDay}
          onChange={(v) => set('maxCyclesPerDay', num(v, 0))}
          disabled={!canEdit}
        />
        <NumberInput
          label="Degradation cost ($/MWh)"
          min={0}
          max={1000}
          value={p.degradationCostPerMWh}
          onChange={(v) => set('degradationCostPerMWh', num(v, 0))}
          disabled={!canEdit}
        />
      </SimpleGrid>
      <Switch label="May charge from the grid" checked={p.gridCharging} onChange={(e) => set('gridCharging', e.currentTarget.checked)} disabled={!canEdit} />
      {canEdit && (
        <Group>
          <Button type="submit" loading={save.isPending}>
            Save Policy
          </Button>
        </Group>
      )}
    </Stack>
  );
}

/** The plan for the next 24 hours (kW, charging positive) over the forecast price it assumed. */
function PlanChart({ state, zone }: { state: TradingState; zone: string }) {
  if (!state.plan.length) return null;
  const x = state.plan.map((i) => i.start);
  const start = x[0];
  const end = x[x.length - 1] + 300;
  return (
    <TimeSeriesChart
      label="Trading plan"
      x={x}
      series={[
        { label: 'Planned power', values: state.plan.map((i) => i.kw), color: '#1c7ed6', axis: 'y' },
        { label: 'Forecast price', values: state.plan.map((i) => i.price), color: '#e8590c', axis: 'y2' },
      ]}
      timeZone={zone}
      start={start}
      end={end}
      stripes={4}
      unit="kW"
      secondaryUnit="$/MWh"
      height={260}
    />
  );
}

/** The last 24 hours: what the plans expected and what the automatic dispatches earned at the actual prices. */
function Outcome({ state }: { state: TradingState }) {
  if (!state.outcome.length) return <Text c="dimmed">No automatic trading in the last 24 hours.</Text>;
  const expected = state.outcome.reduce((s, o) => s + o.plannedRevenue, 0);
  const earned = state.outcome.reduce((s, o) => s + (o.earned ?? 0), 0);
  const acted = state.outcome.filter((o) => o.deliveredKw !== null).length;
  return (
    <Text>
      Last 24 hours: planned {money(expected)}, earned {money(earned)} at the actual prices over {acted} intervals with automatic dispatches.
    </Text>
  );
}

/** A VPP's automatic trading: its policy, the plan over the price forecast, and the last day against the plan. */
export function TradingPanel({ id }: { id: number }) {
  const trading = useTrading(id);
  const { data: account } = useAccount();
  const zone = account?.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (trading.isLoading) return <LoadingSkeleton />;
  const state = trading.data;
  if (!state) return null;
  return (
    <Stack gap="md">
      <PolicyForm id={id} saved={state.policy} />
      {state.suspended && (
        <Alert color="orange" title="Automatic trading is paused">
          {state.suspended}
        </Alert>
      )}
      {state.policy.mode === 'AUTOMATIC' && (
        <Stack gap="xs">
          <Title order={3} size="h5">
            Plan for the next 24 hours
          </Title>
          <Text size="sm">
            {state.plannedAt ? `Planned ${formatDateTime(state.plannedAt, zone)}; expected revenue ${money(state.expectedRevenue)}.` : 'Not planned yet.'}
            {state.updatedBy && ` Policy set by ${state.updatedBy}.`}
          </Text>
          <PlanChart state={state} zone={zone} />
        </Stack>
      )}
      <Outcome state={state} />
      <BacktestPanel id={id} />
    </Stack>
  );
}
