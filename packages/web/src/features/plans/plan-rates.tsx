import { ActionIcon, Badge, Button, Chip, Group, Paper, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { PLAN_DAYS, type PlanDay, type PlanType } from '@vpp/shared/plans/constants';
import { PLAN_MESSAGES } from '@vpp/shared/plans/messages';
import { DEMAND_UNIT, formatTimeInput, isBlockType, isTouType, parseDollars, RATE_UNIT, type RateFormValues } from '@vpp/shared/plans/rules';
import type { ReactNode } from 'react';
import { formatRate, type PlanFormState } from './plan-form-state.ts';

// The plan form's rates (spec 3 §4.4, §5): each rate's card with its blocks, then the list's periods.

const DAY_LABELS: Record<PlanDay, string> = {
  MON: 'Mon',
  TUE: 'Tue',
  WED: 'Wed',
  THU: 'Thu',
  FRI: 'Fri',
  SAT: 'Sat',
  SUN: 'Sun',
  PUBLIC_HOLIDAYS: 'Public holidays',
};
type ListKey = 'rates' | 'demandRates';

function TimeField(props: { form: UseFormReturnType<PlanFormState>; path: string; label: string; readOnly: boolean }) {
  const input = props.form.getInputProps(props.path);
  return (
    <TextInput
      label={props.label}
      placeholder="HH:MM"
      maxLength={5}
      inputMode="numeric"
      w={90}
      readOnly={props.readOnly}
      {...input}
      onChange={(e) => props.form.setFieldValue(props.path, formatTimeInput(e.currentTarget.value))}
    />
  );
}

/** A price input: the text as typed, shown with 4 decimals once it is a dollar value. */
export function PriceField(props: { form: UseFormReturnType<PlanFormState>; path: string; label: string; readOnly: boolean; required?: boolean }) {
  const input = props.form.getInputProps(props.path);
  return (
    <TextInput
      label={props.label}
      inputMode="decimal"
      withAsterisk={props.required && !props.readOnly}
      readOnly={props.readOnly}
      {...input}
      onBlur={(e) => {
        const price = parseDollars(e.currentTarget.value);
        if (price !== null) props.form.setFieldValue(props.path, formatRate(price));
        input.onBlur?.(e);
      }}
    />
  );
}

function FieldError({ message }: { message?: ReactNode }) {
  return message ? (
    <Text size="xs" c="red">
      {message}
    </Text>
  ) : null;
}

/** What a rate list's cards say and allow: rates or demand rates, of the plan's type. */
interface ListShape {
  listKey: ListKey;
  demand: boolean;
  multiBlock: boolean;
  canAddRates: boolean;
  noun: string;
  Noun: string;
}

/** The rates (or demand rates) of the plan: each with its label and blocks; then every period of the list, each naming its rate. */
export function RateList(props: { form: UseFormReturnType<PlanFormState>; listKey: ListKey; readOnly: boolean }) {
  const { form, listKey, readOnly } = props;
  const type = form.values.tariffType as PlanType;
  const list = form.values[listKey];
  const demand = listKey === 'demandRates';
  const shape: ListShape = {
    listKey,
    demand,
    multiBlock: demand || isBlockType(type),
    canAddRates: demand || isTouType(type),
    noun: demand ? 'Demand rate' : 'Rate',
    Noun: demand ? 'Demand Rate' : 'Rate',
  };
  const withPeriods = demand || isTouType(type);
  const labels = [...new Set(list.map((r) => (r.label ?? '').trim()).filter(Boolean))];

  // A period lives under the rate it names: choosing another rate moves it there.
  const setPeriodRate = (i: number, j: number, label: string) => {
    const target = list.findIndex((r) => (r.label ?? '').trim() === label);
    if (target < 0 || target === i) return form.setFieldValue(`${listKey}.${i}.periods.${j}.rate`, label);
    const next = list.map((r) => ({ ...r, periods: [...r.periods] }));
    const [moved] = next[i].periods.splice(j, 1);
    next[target].periods.push({ ...moved, rate: label });
    form.setFieldValue(listKey, next);
    form.clearErrors();
  };
  const addPeriod = () => {
    const i = Math.max(
      0,
      list.findIndex((r) => r.periods.length === 0),
    );
    form.insertListItem(`${listKey}.${i}.periods`, { startTime: '', endTime: '', applicableDays: [], rate: list[i]?.label ?? '' });
  };
  const addRate = () => form.insertListItem(listKey, { label: '', isBaseRate: false, blocks: [{ onset: '0', price: '' }], periods: [] });
  const removePeriod = (i: number, j: number) => {
    form.removeListItem(`${listKey}.${i}.periods`, j);
    form.clearErrors();
  };

  const periods = list.flatMap((r, i) => r.periods.map((p, j) => ({ p, i, j })));
  return (
    <Stack gap="sm">
      {list.map((r, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the inputs are controlled by their form path, which is what the key names
        <RateCard key={`${listKey}.${i}`} form={form} shape={shape} index={i} rate={r} count={list.length} readOnly={readOnly} />
      ))}
      {!readOnly && shape.canAddRates && (
        <Group>
          <Button variant="default" leftSection={<IconPlus size={16} />} onClick={addRate}>
            Add {shape.Noun}
          </Button>
        </Group>
      )}
      {withPeriods && (
        <Stack gap="xs">
          <Title order={3} size="h5">
            {demand ? 'Demand Periods' : 'Periods'}
          </Title>
          {periods.length === 0 && <Text c="dimmed">No periods.</Text>}
          {periods.map(({ p, i, j }, n) => (
            <PeriodCard
              key={`${listKey}.${i}.periods.${j}`}
              form={form}
              at={`${listKey}.${i}.periods.${j}`}
              name={`${demand ? 'Demand period' : 'Period'} ${n + 1}`}
              number={n + 1}
              period={p}
              labels={labels}
              readOnly={readOnly}
              onRate={(label) => setPeriodRate(i, j, label)}
              onRemove={() => removePeriod(i, j)}
            />
          ))}
          {!readOnly && (
            <Group>
              <Button variant="default" leftSection={<IconPlus size={16} />} onClick={addPeriod} disabled={list.length === 0}>
                Add {demand ? 'Demand Period' : 'Period'}
              </Button>
            </Group>
          )}
        </Stack>
      )}
    </Stack>
  );
}

/** One rate of a list: its label (the base rate keeps its name), its blocks of onset and price, and its errors. */
function RateCard(props: { form: UseFormReturnType<PlanFormState>; shape: ListShape; index: number; rate: RateFormValues; count: number; readOnly: boolean }) {
  const { form, shape, index: i, rate: r, readOnly } = props;
  const at = `${shape.listKey}.${i}`;
  const onsetUnit = shape.demand ? 'kW' : 'kWh';
  const priceUnit = shape.demand ? `$/${DEMAND_UNIT}` : RATE_UNIT;
  // The rate's periods name it: renaming the rate renames them.
  const setLabel = (label: string) => form.setFieldValue(at, { ...r, label, periods: r.periods.map((p) => ({ ...p, rate: label })) });
  return (
    <Paper withBorder p="sm" component="fieldset" aria-label={`${shape.noun} ${i + 1}`} style={{ margin: 0 }}>
      <Group align="flex-end" gap="sm">
        <TextInput
          label="Label"
          withAsterisk={!readOnly}
          // The base rate keeps its name (spec 3 §4.4: the first rate is 'Base Rate').
          readOnly={readOnly || r.isBaseRate}
          maxLength={100}
          {...form.getInputProps(`${at}.label`)}
          onChange={(e) => setLabel(e.currentTarget.value)}
        />
        {r.isBaseRate && (
          <Badge variant="light" mb={8}>
            {PLAN_MESSAGES.baseRate}
          </Badge>
        )}
        {!readOnly && shape.canAddRates && !r.isBaseRate && props.count > 1 && (
          <Button
            variant="subtle"
            color="red"
            leftSection={<IconTrash size={16} />}
            onClick={() => {
              form.removeListItem(shape.listKey, i);
              form.clearErrors();
            }}
          >
            Remove {shape.Noun}
          </Button>
        )}
      </Group>
      <Table mt="sm" withRowBorders={false} aria-label={`${shape.noun} ${i + 1} blocks`}>
        <Table.Tbody>
          {r.blocks.map((_, j) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the inputs are controlled by their form path, which is what the key names
            <Table.Tr key={`${at}.blocks.${j}`}>
              <Table.Td pl={0}>
                <TextInput
                  label={`Onset (${onsetUnit})`}
                  inputMode="decimal"
                  readOnly={readOnly || j === 0}
                  {...form.getInputProps(`${at}.blocks.${j}.onset`)}
                />
              </Table.Td>
              <Table.Td>
                <PriceField form={form} path={`${at}.blocks.${j}.price`} label={`Price (${priceUnit})`} readOnly={readOnly} required />
              </Table.Td>
              <Table.Td valign="bottom">
                {!readOnly && shape.multiBlock && j > 0 && (
                  <ActionIcon variant="subtle" color="red" aria-label={`Remove block ${j + 1}`} onClick={() => form.removeListItem(`${at}.blocks`, j)}>
                    <IconTrash size={16} />
                  </ActionIcon>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <FieldError message={form.errors[`${at}.blocks`]} />
      <FieldError message={form.errors[`${at}.periods`]} />
      {!readOnly && shape.multiBlock && (
        <Button variant="subtle" size="xs" leftSection={<IconPlus size={14} />} onClick={() => form.insertListItem(`${at}.blocks`, { onset: '', price: '' })}>
          Add Block
        </Button>
      )}
    </Paper>
  );
}

/** One period of a list: start, end, the rate it names, and its days (chips to choose, or badges when read-only). */
function PeriodCard(props: {
  form: UseFormReturnType<PlanFormState>;
  at: string;
  name: string;
  number: number;
  period: RateFormValues['periods'][number];
  labels: string[];
  readOnly: boolean;
  onRate: (label: string) => void;
  onRemove: () => void;
}) {
  const { form, at, period: p, readOnly } = props;
  return (
    <Paper withBorder p="sm" component="fieldset" aria-label={props.name} style={{ margin: 0 }}>
      <Group align="flex-start" gap="sm" wrap="wrap">
        <TimeField form={form} path={`${at}.startTime`} label="Start" readOnly={readOnly} />
        <TimeField form={form} path={`${at}.endTime`} label="End" readOnly={readOnly} />
        <Select
          label="Rate"
          w={180}
          data={props.labels}
          readOnly={readOnly}
          allowDeselect={false}
          error={form.errors[`${at}.rate`]}
          value={p.rate || null}
          onChange={(v) => v && props.onRate(v)}
          comboboxProps={{ withinPortal: true }}
        />
        {!readOnly && (
          <ActionIcon variant="subtle" color="red" mt={28} aria-label={`Remove period ${props.number}`} onClick={props.onRemove}>
            <IconTrash size={16} />
          </ActionIcon>
        )}
      </Group>
      {readOnly ? (
        <Group gap={6} mt="xs" role="group" aria-label="Days">
          {PLAN_DAYS.filter((d) => p.applicableDays.includes(d)).map((d) => (
            <Badge key={d} variant="outline" color="gray">
              {DAY_LABELS[d]}
            </Badge>
          ))}
        </Group>
      ) : (
        <Chip.Group multiple value={p.applicableDays} onChange={(days) => form.setFieldValue(`${at}.applicableDays`, days as PlanDay[])}>
          <Group gap={6} mt="xs" role="group" aria-label="Days">
            {PLAN_DAYS.map((d) => (
              <Chip key={d} value={d} size="xs">
                {DAY_LABELS[d]}
              </Chip>
            ))}
          </Group>
        </Chip.Group>
      )}
      <FieldError message={form.errors[`${at}.applicableDays`]} />
    </Paper>
  );
}
