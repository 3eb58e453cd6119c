import { Paper, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { formatDateTime } from '@vpp/shared/format';
import { RERT_LOR_CONDITIONS, RERT_NOTICE_CATEGORIES } from '@vpp/shared/rert/schemas';
import { zoneLabel } from '@vpp/shared/time';
import { useState } from 'react';
import { localDateTimeToEpoch, type RertTermsDraft, type termsBody, termsErrors } from './rert-form.ts';

export const NOTICE_CATEGORY_LABELS: Record<(typeof RERT_NOTICE_CATEGORIES)[number], string> = {
  SHORT_NOTICE: 'Short notice',
  MEDIUM_NOTICE: 'Medium notice',
  LONG_NOTICE: 'Long notice',
};

export const TERMS_SECTION = 'AEMO Instruction and RERT Contract';
export const TERMS_INTRO = 'AEMO’s instruction this dispatch answers and the reserve contract it runs under: it is settled under the contract, never at spot.';

type Key = keyof RertTermsDraft;
const TEXT_FIELDS: { key: Key; label: string; unit?: string }[] = [
  { key: 'reference', label: 'Contract reference' },
  { key: 'contractedMw', label: 'Contracted reserve (MW)' },
  { key: 'availabilityRate', label: 'Availability ($/MW per hour)' },
  { key: 'preActivationRate', label: 'Pre-activation ($/MWh)' },
  { key: 'activationRate', label: 'Activation ($/MWh)' },
  { key: 'usageRate', label: 'Usage ($/MWh)' },
  { key: 'customerShare', label: 'Customers’ share (%)' },
];

/**
 * The New RERT modal's instruction and contract fields (issue 33 item 3). A field's message shows
 * once it has been left (or, for a time, once the other time or the start makes it wrong).
 */
export function RertTermsFields(props: { terms: RertTermsDraft; onChange: (t: RertTermsDraft) => void; startTime: number; zone: string }) {
  const { terms, zone } = props;
  const [touched, setTouched] = useState<Partial<Record<Key, boolean>>>({});
  const errors = termsErrors(terms, props.startTime, zone);
  const shown = (k: Key) => (touched[k] ? errors[k] : undefined);
  const set = (k: Key, v: string | null) => props.onChange({ ...terms, [k]: v });
  const leave = (k: Key) => () => setTouched((t) => ({ ...t, [k]: true }));
  const tz = zoneLabel(zone, props.startTime);
  return (
    <Paper withBorder p="sm" aria-label={TERMS_SECTION}>
      <Stack gap="xs">
        <Text size="sm" fw={600}>
          {TERMS_SECTION}
        </Text>
        <Text size="xs" c="dimmed">
          {TERMS_INTRO}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 5 }} spacing="sm">
          <TextInput
            label="AEMO instruction ID"
            value={terms.instructionId}
            onChange={(e) => set('instructionId', e.currentTarget.value)}
            onBlur={leave('instructionId')}
            error={shown('instructionId')}
          />
          <Select
            label="Notice category"
            placeholder="Choose"
            data={RERT_NOTICE_CATEGORIES.map((v) => ({ value: v, label: NOTICE_CATEGORY_LABELS[v] }))}
            value={terms.noticeCategory}
            onChange={(v) => {
              set('noticeCategory', v);
              setTouched((t) => ({ ...t, noticeCategory: true }));
            }}
            onBlur={leave('noticeCategory')}
            error={shown('noticeCategory')}
            comboboxProps={{ withinPortal: true }}
          />
          <Select
            label="LOR condition"
            placeholder="Choose"
            data={RERT_LOR_CONDITIONS.map((v) => ({ value: v, label: v }))}
            value={terms.lorCondition}
            onChange={(v) => {
              set('lorCondition', v);
              setTouched((t) => ({ ...t, lorCondition: true }));
            }}
            onBlur={leave('lorCondition')}
            error={shown('lorCondition')}
            comboboxProps={{ withinPortal: true }}
          />
          <TextInput
            label={`Pre-activation time, ${tz}`}
            type="datetime-local"
            value={terms.preActivation}
            onChange={(e) => set('preActivation', e.currentTarget.value)}
            onBlur={leave('preActivation')}
            error={shown('preActivation') ?? (terms.preActivation && terms.activation ? errors.preActivation : undefined)}
          />
          <TextInput
            label={`Activation time, ${tz}`}
            type="datetime-local"
            value={terms.activation}
            onChange={(e) => set('activation', e.currentTarget.value)}
            onBlur={leave('activation')}
            error={shown('activation') ?? (terms.activation && localDateTimeToEpoch(terms.activation, zone) !== null ? errors.activation : undefined)}
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="sm">
          {TEXT_FIELDS.map((f) => (
            <TextInput
              key={f.key}
              label={f.label}
              inputMode={f.key === 'reference' ? 'text' : 'decimal'}
              value={terms[f.key] ?? ''}
              onChange={(e) => set(f.key, e.currentTarget.value)}
              onBlur={leave(f.key)}
              error={shown(f.key)}
            />
          ))}
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}

/** The confirmation's rows of complete terms. */
export function termsRows(body: ReturnType<typeof termsBody>, zone: string): [string, string][] {
  if (!body) return [];
  const { instruction: i, contract: c } = body;
  return [
    ['AEMO instruction', `${i.id} (${NOTICE_CATEGORY_LABELS[i.noticeCategory]}, ${i.lorCondition})`],
    ['Pre-activation', formatDateTime(i.preActivationTime, zone)],
    ['Activation', formatDateTime(i.activationTime, zone)],
    [
      'RERT contract',
      `${c.reference}: ${c.contractedMw} MW; availability $${c.availabilityRate}/MW per hour; pre-activation $${c.preActivationRate}/MWh; activation $${c.activationRate}/MWh; usage $${c.usageRate}/MWh; customers’ share ${Math.round(c.customerShare * 1e4) / 100} %`,
    ],
  ];
}
