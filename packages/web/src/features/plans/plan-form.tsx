import { ActionIcon, Alert, Badge, Button, Chip, Group, Paper, Select, SimpleGrid, Stack, Table, Text, Textarea, TextInput, Title } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { type UseFormReturnType, useForm } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import {
  DEMAND_UNIT,
  formatTimeInput,
  isBlockType,
  isDemandType,
  isTouType,
  PLAN_DAYS,
  PLAN_MESSAGES,
  PLAN_TYPE_LABELS,
  PLAN_TYPES,
  type Plan,
  type PlanDay,
  type PlanErrors,
  type PlanType,
  parseDollars,
  planStructure,
  RATE_DECIMALS,
  RATE_UNIT,
  type RateFormValues,
  RESET_PERIODS,
  type ResetPeriod,
  type SavePlanBody,
  validatePlan,
} from '@vpp/shared';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { toast } from '../../lib/toasts.ts';
import { useOperationalNetworks } from './api.ts';

/** The form's values: text as typed (numbers too), a period under the rate it names. */
export interface PlanFormState {
  name: string;
  planCode: string;
  description: string;
  tariffType: PlanType | null;
  operationalNetworkUid: string | null;
  startDate: string;
  resetPeriod: ResetPeriod | null;
  dailyCharge: string;
  feedInTariff: string;
  discount: string;
  rates: RateFormValues[];
  demandRates: RateFormValues[];
}

export const EMPTY_PLAN_FORM: PlanFormState = {
  name: '',
  planCode: '',
  description: '',
  tariffType: null,
  operationalNetworkUid: null,
  startDate: '',
  resetPeriod: null,
  dailyCharge: '',
  feedInTariff: '',
  discount: '0',
  rates: [],
  demandRates: [],
};

/** A price as the form shows it: 4 decimals (spec 3 §5). */
export const formatRate = (price: number) => price.toFixed(RATE_DECIMALS);

/** The form's values of a saved plan: its latest version's prices, rates with 4 decimals. */
export function planFormOf(plan: Plan): PlanFormState {
  const latest = plan.versions.find((v) => v.latest);
  const rates = (list: Plan['rates']): RateFormValues[] =>
    list.map((r) => ({
      label: r.label,
      isBaseRate: r.isBaseRate,
      blocks: r.blocks.map((b) => ({ onset: String(b.onset), price: formatRate(b.price) })),
      periods: r.periods.map((p) => ({ ...p, applicableDays: [...p.applicableDays] })),
    }));
  return {
    name: plan.name,
    planCode: plan.planCode,
    description: plan.description,
    tariffType: plan.tariffType,
    operationalNetworkUid: plan.operationalNetworkUid,
    startDate: latest?.startDate ?? plan.startDate,
    resetPeriod: plan.resetPeriod,
    dailyCharge: formatRate(plan.dailyCharge),
    feedInTariff: formatRate(plan.feedInTariff),
    discount: String(plan.discount),
    rates: rates(plan.rates),
    demandRates: rates(plan.demandRates),
  };
}

/** The save payload of spec 3 §7 the form stands for; `uid` added for an update. */
export function bodyOf(v: PlanFormState, uid?: number): SavePlanBody & ValidatedValues {
  return { ...v, ...(uid === undefined ? {} : { uid }) };
}
type ValidatedValues = Parameters<typeof validatePlan>[0];

/** The form's values once the plan type changes: the structure that type regenerates (spec 3 §4.4); a reset period only for block plans. */
export function withPlanType(v: PlanFormState, type: PlanType): PlanFormState {
  return { ...v, tariffType: type, resetPeriod: isBlockType(type) ? v.resetPeriod : null, ...planStructure(type) };
}

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
const RESET_LABELS: Record<ResetPeriod, string> = { DAILY: 'Daily', WEEKLY: 'Weekly', MONTHLY: 'Monthly', QUARTERLY: 'Quarterly' };

type ListKey = 'rates' | 'demandRates';

/** Paths whose messages the form shows beside a field or a rate; any other goes to the top with the non-field errors. */
const SHOWN_PATH =
  /^(name|planCode|description|tariffType|operationalNetworkUid|startDate|resetPeriod|dailyCharge|feedInTariff|discount|(rates|demandRates)\.\d+\.(label|blocks|periods|blocks\.\d+\.(onset|price)|periods\.\d+\.(startTime|endTime|applicableDays|rate)))$/;

/** The messages the top of the form lists: the non-field errors, then those of fields it does not show. */
export function topErrors(e: PlanErrors): string[] {
  return [...e.non_field_errors, ...Object.entries(e.errors).flatMap(([path, m]) => (SHOWN_PATH.test(path) ? [] : [m]))];
}

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
function PriceField(props: { form: UseFormReturnType<PlanFormState>; path: string; label: string; readOnly: boolean; required?: boolean }) {
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
function RateList(props: { form: UseFormReturnType<PlanFormState>; listKey: ListKey; readOnly: boolean }) {
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

/** The plan's own fields: name, code, type, network, commencement date, reset period, charges, discount, description. */
function PlanDetails(props: { form: UseFormReturnType<PlanFormState>; mode: 'create' | 'view' | 'edit'; onPlanType: (type: PlanType) => void }) {
  const { form, onPlanType } = props;
  const readOnly = props.mode === 'view';
  const type = form.values.tariffType;
  const networks = useOperationalNetworks();
  // Issue 33 item 8: networks outside the NEM (WA, NT) are listed but cannot be chosen; the form says why.
  const networkChoices = (networks.data ?? []).map((n) => ({ value: n.uid, label: n.nem ? n.name : `${n.name} (not in the NEM)`, disabled: !n.nem }));
  const outside = (networks.data ?? []).flatMap((n) => (n.outsideNem ? [n.outsideNem] : []));
  return (
    <Paper withBorder p="md" component="section" aria-label="Plan details">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput label="Plan Name" withAsterisk={!readOnly} readOnly={readOnly} maxLength={200} {...form.getInputProps('name')} />
        <TextInput label="Plan Code" withAsterisk={!readOnly} readOnly={readOnly} maxLength={100} {...form.getInputProps('planCode')} />
        <Select
          label="Plan Type"
          withAsterisk={!readOnly}
          readOnly={readOnly}
          placeholder="Choose a plan type"
          data={PLAN_TYPES.map((t) => ({ value: t, label: PLAN_TYPE_LABELS[t] }))}
          allowDeselect={false}
          {...form.getInputProps('tariffType')}
          onChange={(v) => {
            if (v && v !== type) onPlanType(v as PlanType);
          }}
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          label="Network"
          withAsterisk={!readOnly}
          readOnly={readOnly}
          placeholder="Choose a network"
          searchable
          data={networkChoices}
          {...form.getInputProps('operationalNetworkUid')}
          comboboxProps={{ withinPortal: true }}
        />
        {!readOnly && outside.length > 0 && (
          <Text size="xs" c="dimmed" style={{ gridColumn: '1 / -1' }} aria-label="Networks outside the NEM">
            {outside.join(' ')}
          </Text>
        )}
        <DatePickerInput
          label="Commencement Date"
          withAsterisk={!readOnly}
          readOnly={readOnly}
          valueFormat="DD/MM/YYYY"
          placeholder="dd/mm/yyyy"
          description={props.mode === 'edit' ? 'Prices from a later date start a new version; the earlier one keeps applying before it.' : undefined}
          {...form.getInputProps('startDate')}
          value={form.values.startDate || null}
          onChange={(v) => form.setFieldValue('startDate', v ? String(v).slice(0, 10) : '')}
          popoverProps={{ withinPortal: true }}
        />
        {type && isBlockType(type) && (
          <Select
            label="Reset Period"
            withAsterisk={!readOnly}
            readOnly={readOnly}
            placeholder="Choose a reset period"
            data={RESET_PERIODS.map((r) => ({ value: r, label: RESET_LABELS[r] }))}
            {...form.getInputProps('resetPeriod')}
            comboboxProps={{ withinPortal: true }}
          />
        )}
        <PriceField form={form} path="dailyCharge" label="Daily Charge ($/day)" readOnly={readOnly} required />
        <PriceField form={form} path="feedInTariff" label={`Feed In Tariff (${RATE_UNIT})`} readOnly={readOnly} required />
        <TextInput label="Discount (%)" inputMode="decimal" readOnly={readOnly} {...form.getInputProps('discount')} />
      </SimpleGrid>
      <Textarea mt="sm" label="Description" autosize minRows={2} readOnly={readOnly} maxLength={2000} {...form.getInputProps('description')} />
      <Text size="xs" c="dimmed" mt="xs">
        Prices exclude GST.
      </Text>
    </Paper>
  );
}

/**
 * The one plan form of spec 3 §2.9 and §5, for create, view (read-only) and edit. It runs the shared
 * rules before sending; a refusal (the browser's or the server's) puts each message on its field,
 * lists the non-field errors at the top and warns 'New Plan Errors' or 'Plan Errors'.
 */
export function PlanForm(props: {
  mode: 'create' | 'view' | 'edit';
  initial: PlanFormState;
  /** Sends the plan; answers the server's refusal, or null once saved (or once another failure was toasted). */
  onSave?: (values: PlanFormState) => Promise<PlanErrors | null>;
  saving?: boolean;
  actions?: ReactNode;
}) {
  const readOnly = props.mode === 'view';
  const form = useForm<PlanFormState>({ initialValues: props.initial });
  const [top, setTop] = useState<string[]>([]);
  const topRef = useRef<HTMLDivElement>(null);
  // The form is long: a refusal with messages at the top brings them into view.
  useEffect(() => {
    if (top.length) topRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  }, [top]);
  const type = form.values.tariffType;
  const refusedTitle = props.mode === 'create' ? PLAN_MESSAGES.newPlanErrors : PLAN_MESSAGES.planErrors;

  const refuse = (e: PlanErrors) => {
    form.setErrors(e.errors);
    setTop(topErrors(e));
    toast('warning', refusedTitle, PLAN_MESSAGES.correctErrors);
  };

  const submit = form.onSubmit(async (values) => {
    const checked = validatePlan(bodyOf(values));
    if (Object.keys(checked.errors).length || checked.non_field_errors.length) return refuse(checked);
    setTop([]);
    const refused = await props.onSave?.(values);
    if (refused) refuse(refused);
  });

  return (
    <form onSubmit={submit} noValidate aria-label={props.mode === 'create' ? 'New Plan' : 'Plan'}>
      <Stack gap="md">
        {top.length > 0 && (
          <Alert ref={topRef} color="red" title={refusedTitle} role="alert" aria-label={refusedTitle}>
            <Stack gap={2}>
              {top.map((m) => (
                <Text size="sm" key={m}>
                  {m}
                </Text>
              ))}
            </Stack>
          </Alert>
        )}
        <PlanDetails
          form={form}
          mode={props.mode}
          onPlanType={(v) => {
            form.setValues(withPlanType(form.values, v));
            form.clearErrors();
            setTop([]);
          }}
        />
        <Paper withBorder p="md" component="section" aria-label="Rates">
          <Title order={2} size="h4" mb="sm">
            Rates
          </Title>
          {type ? <RateList form={form} listKey="rates" readOnly={readOnly} /> : <Text c="dimmed">Choose a plan type to set its rates.</Text>}
        </Paper>
        {type && isDemandType(type) && (
          <Paper withBorder p="md" component="section" aria-label="Demand Rates">
            <Title order={2} size="h4" mb="sm">
              Demand Rates
            </Title>
            <RateList form={form} listKey="demandRates" readOnly={readOnly} />
          </Paper>
        )}
        <Group>
          {!readOnly && (
            <Button type="submit" loading={props.saving}>
              {props.mode === 'create' ? 'Create Plan' : 'Save Plan'}
            </Button>
          )}
          {props.actions}
        </Group>
      </Stack>
    </form>
  );
}
