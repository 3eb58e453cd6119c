import { Alert, Button, Group, Paper, Select, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { type UseFormReturnType, useForm } from '@mantine/form';
import { PLAN_TYPE_LABELS, PLAN_TYPES, type PlanType, RESET_PERIODS, type ResetPeriod } from '@vpp/shared/plans/constants';
import { PLAN_MESSAGES } from '@vpp/shared/plans/messages';
import { isBlockType, isDemandType, type PlanErrors, RATE_UNIT, validatePlan } from '@vpp/shared/plans/rules';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { toast } from '../../lib/toasts.ts';
import { useOperationalNetworks } from './api.ts';
import { bodyOf, type PlanFormState, topErrors, withPlanType } from './plan-form-state.ts';
import { PriceField, RateList } from './plan-rates.tsx';

const RESET_LABELS: Record<ResetPeriod, string> = { DAILY: 'Daily', WEEKLY: 'Weekly', MONTHLY: 'Monthly', QUARTERLY: 'Quarterly' };

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
