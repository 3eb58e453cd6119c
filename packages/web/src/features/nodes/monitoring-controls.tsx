import { ActionIcon, Checkbox, Chip, Group, SegmentedControl, Select } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import type { NodeDetail } from '@vpp/shared/nodes/schemas';
import { endOfPeriod, epochToLocalDate, localDateToEpoch, shiftPeriod } from '@vpp/shared/time';
import { SECONDARY, SUBMETER_COLOURS, submeterLabels, TOGGLES } from './monitoring-chart.ts';
import { type MonitoringSettings, startOfPeriodDate } from './monitoring-settings.ts';

/** Previous and next period, the date picker (Mondays only for a week) and the period switch. */
export function PeriodPicker({ s, zone }: { s: MonitoringSettings; zone: string }) {
  const atStart = s.date <= startOfPeriodDate(s.firstDay, s.period, zone);
  const atEnd = endOfPeriod(s.start, s.period, zone) > localDateToEpoch(s.today, zone);
  return (
    <Group justify="space-between" wrap="wrap">
      <Group gap="xs">
        <ActionIcon
          variant="default"
          aria-label="Previous"
          onClick={() => s.set({ date: epochToLocalDate(shiftPeriod(s.start, s.period, -1, zone), zone) })}
          style={{ visibility: atStart ? 'hidden' : 'visible' }}
        >
          <IconChevronLeft size={16} />
        </ActionIcon>
        <DatePickerInput
          // The name holds the date it shows (WCAG 2.5.3: the visible text is part of the name).
          aria-label={`Date ${s.date.split('-').reverse().join('/')}`}
          valueFormat="DD/MM/YYYY"
          value={s.date}
          minDate={s.period === 'week' ? startOfPeriodDate(s.firstDay, 'week', zone) : s.firstDay}
          maxDate={s.today}
          excludeDate={s.period === 'week' ? (d) => new Date(`${d}T12:00:00Z`).getUTCDay() !== 1 : undefined}
          onChange={(v) => v && s.set({ date: String(v).slice(0, 10) })}
          w={150}
        />
        <ActionIcon
          variant="default"
          aria-label="Next"
          onClick={() => s.set({ date: epochToLocalDate(shiftPeriod(s.start, s.period, 1, zone), zone) })}
          style={{ visibility: atEnd ? 'hidden' : 'visible' }}
        >
          <IconChevronRight size={16} />
        </ActionIcon>
      </Group>
      <SegmentedControl
        aria-label="Period"
        value={s.period}
        onChange={(v) => s.set({ period: v as MonitoringSettings['period'] })}
        data={[
          { value: 'day', label: 'Day' },
          { value: 'week', label: 'Week' },
          { value: 'month', label: 'Month' },
          { value: 'year', label: 'Year', disabled: true },
        ]}
      />
    </Group>
  );
}

/**
 * A chip per series the node offers (SGA only with its permission, Battery only with a battery) and
 * per submeter (at most two shown at once, each chip in its line's colour; shared names carry the meter id).
 */
export function SeriesToggles({ s, node }: { s: MonitoringSettings; node: NodeDetail }) {
  const labels = submeterLabels(node.subMeters);
  return (
    <Group gap="xs">
      {TOGGLES.filter((t) => s.offered.includes(t.key)).map((t) => (
        <Chip key={t.key} checked={s.on[t.key]} onChange={(c) => s.set({ [t.key]: c })} color={t.color} size="sm">
          {t.label}
        </Chip>
      ))}
      {node.subMeters.map((sm) => (
        <Chip
          key={sm.id}
          size="sm"
          color={SUBMETER_COLOURS[Math.max(0, s.submeters.indexOf(sm.id))]}
          checked={s.submeters.includes(sm.id)}
          onChange={(c) => s.set({ submeters: (c ? [...s.submeters, sm.id] : s.submeters.filter((id) => id !== sm.id)).slice(-2) })}
        >
          {labels.get(sm.id)}
        </Chip>
      ))}
    </Group>
  );
}

/** The secondary axis choice, and split by phase on a three-phase node. */
export function AxisOptions({ s, node }: { s: MonitoringSettings; node: NodeDetail }) {
  return (
    <Group gap="lg">
      <Select
        label="Secondary axis"
        data={s.secondaryChoices.map((k) => ({ value: k, label: SECONDARY[k].label }))}
        value={s.secondary}
        onChange={(v) => v && s.set({ secondaryYAxis: v as MonitoringSettings['secondary'] })}
        allowDeselect={false}
        w={200}
      />
      {node.phases === 3 && <Checkbox mt="lg" label="Split by phase" checked={s.split} onChange={(e) => s.set({ splitByPhase: e.currentTarget.checked })} />}
    </Group>
  );
}
