import { Badge, Stack, Text } from '@mantine/core';
import { CURTAILMENT_MESSAGES, curtailmentComponentLabel } from '@vpp/shared/curtailments/messages';
import { CURTAILMENT_EDIT } from '@vpp/shared/curtailments/permissions';
import type { CurtailmentSetpoint, CurtailmentSummary } from '@vpp/shared/curtailments/schemas';
import { formatPower } from '@vpp/shared/format';
import { ConfirmButton } from '../../components/confirm-button.tsx';
import type { Column } from '../../components/data-table.tsx';
import { usePermission } from '../../lib/permission-gate.tsx';
import { type EventPage, type EventRowFormat, EventTable, eventColumns, formatDispatchStart } from '../events/index.ts';
import { useRemoveSetpoint } from './api.ts';
import { curtailmentPath } from './curtailment-form.ts';

/** How a curtailment reads in its table (spec 3 §2.7): its reason when triggered, its limit (kW) and Net or Gross. */
const CURTAILMENT_ROW: EventRowFormat<CurtailmentSummary> = {
  label: (c) => (c.triggered && c.reason ? c.reason : 'Curtailment'),
  vpp: (c) => c.powerstation?.name ?? CURTAILMENT_MESSAGES.unknownVpp,
  request: (c) => ({ power: formatPower(c.request.realPowerP, 1), kind: curtailmentComponentLabel(c.component) }),
};

/** The curtailment table of spec 3 §2.7: Event, Start, Duration, Request (kW, Net or Gross), Status; a row opens its detail. */
export function CurtailmentTable({ page, zone, nowS }: { page: EventPage<CurtailmentSummary>; zone: string; nowS: number }) {
  return (
    <EventTable
      label="Curtailments"
      columns={eventColumns(CURTAILMENT_ROW, zone, nowS)}
      page={page}
      path={curtailmentPath}
      empty={CURTAILMENT_MESSAGES.empty}
    />
  );
}

function setpointColumns(zone: string, nowS: number, withVpp: boolean, remove: ((id: number) => Promise<unknown>) | null): Column<CurtailmentSetpoint>[] {
  const columns: Column<CurtailmentSetpoint>[] = [
    {
      key: 'setpoint',
      header: 'Setpoint',
      render: (s) => (
        <Stack gap={0}>
          <Text size="sm" fw={500}>
            Setpoint {s.id}
          </Text>
          {withVpp && (
            <Text size="xs" c="dimmed">
              {s.powerstationName}
            </Text>
          )}
        </Stack>
      ),
    },
    { key: 'created', header: 'Created At', render: (s) => formatDispatchStart(s.created_at, zone, nowS) },
    {
      key: 'status',
      header: 'Status',
      render: (s) => (
        // At its full width: a narrow screen scrolls the table rather than cut the word.
        <Badge variant="light" color={s.status === 'ACTIVE' ? 'green' : 'gray'} tt="none" style={{ minWidth: 'max-content' }}>
          {s.status}
        </Badge>
      ),
    },
    { key: 'ramp', header: 'Ramp Duration', render: (s) => `${s.ramp_duration} s` },
    { key: 'gross', header: 'Gross VPP Limit (kW)', render: (s) => s.solar_limit },
    { key: 'net', header: 'Net VPP Limit (kW)', render: (s) => s.grid_limit },
  ];
  // Ours (issue 34): the ACTIVE setpoint can be removed, lifting the VPP's standing limits, not only superseded.
  if (!remove) return columns;
  return [
    ...columns,
    {
      key: 'actions',
      header: 'Actions',
      render: (s) =>
        s.status === 'ACTIVE' ? (
          <ConfirmButton
            label={CURTAILMENT_MESSAGES.removeSetpoint}
            ariaLabel={`Remove setpoint ${s.id}`}
            size="xs"
            title={`Remove setpoint ${s.id}`}
            question={CURTAILMENT_MESSAGES.removeSetpointConfirm}
            confirmLabel={CURTAILMENT_MESSAGES.removeSetpoint}
            onConfirm={() => remove(s.id)}
          />
        ) : null,
    },
  ];
}

/**
 * The setpoint table of spec 3 §2.7: Setpoint, Created At, Status, Ramp Duration, Gross and Net VPP
 * Limit (kW); newest first, ACTIVE first within the same creation time (the server's order). On a
 * VPP's own tab the VPP's name is left out.
 */
export function SetpointTable({ page, zone, nowS, withVpp = true }: { page: EventPage<CurtailmentSetpoint>; zone: string; nowS: number; withVpp?: boolean }) {
  const canEdit = usePermission(CURTAILMENT_EDIT);
  const remove = useRemoveSetpoint();
  return (
    <EventTable
      label="Default Setpoints"
      columns={setpointColumns(zone, nowS, withVpp, canEdit ? remove.mutateAsync : null)}
      page={page}
      empty={CURTAILMENT_MESSAGES.emptySetpoints}
    />
  );
}
