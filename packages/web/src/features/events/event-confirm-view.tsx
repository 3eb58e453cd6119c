import { Alert, Button, Group, Stack, Table, Text } from '@mantine/core';
import { DISPATCH_MESSAGES } from '@vpp/shared/dispatches/messages';
import { formatDateTime, formatDuration } from '@vpp/shared/format';
import type { DispatchPriceReply } from '@vpp/shared/market/schemas';
import type { ReactNode } from 'react';
import { createBody, type DispatchDraft, type DraftPermissions, powerLabel } from './event-draft.ts';
import { NewDispatchPrices } from './event-prices.tsx';

const STRATEGY_LABELS = { greedy: 'Greedy', uniform: 'Uniform' } as const;

/** The confirmation view (spec 3 §2.3): what will be sent, read-only, its prices, Back and Execute. */
export function NewDispatchConfirmView(props: {
  draft: DispatchDraft;
  can: DraftPermissions;
  vppName: string;
  zone: string;
  prices: { show: boolean; data: DispatchPriceReply | undefined; failed: boolean; loading: boolean };
  /** Issue 33 item 1: the expected delivery goes against the request (null when it does not). */
  deliveryWarning?: string | null;
  executing: boolean;
  onBack: () => void;
  onExecute: () => void;
  /** The question and the button that sends (another kind's, or a reschedule's). */
  question?: string;
  executeLabel?: string;
  /** Another kind's own rows (a RERT dispatch's instruction and contract), after the dispatch's. */
  extraRows?: [string, string][];
}) {
  const { draft: d, can, zone } = props;
  const body = createBody(d, can);
  const rows: [string, string][] = [
    ['Virtual Power Plant', props.vppName],
    ['Start', formatDateTime(d.startTime, zone)],
    ['End', formatDateTime(d.startTime + d.duration, zone)],
    ['Duration', formatDuration(d.duration)],
    ['Power', powerLabel(d.realPowerP)],
  ];
  if (body.strategy && d.realPowerP !== 0) rows.push(['Strategy', STRATEGY_LABELS[body.strategy]]);
  if (body.powerFactor !== null && body.powerFactor !== undefined)
    rows.push([
      'Power factor',
      `${body.powerFactor.toFixed(2)}${body.powerFactorLeadLag ? ` ${body.powerFactorLeadLag === 'LEADING' ? 'leading' : 'lagging'}` : ''}`,
    ]);
  rows.push(...(props.extraRows ?? []));
  rows.push(['Customer message', body.customerMessage ? `${body.messageTitle}: ${body.customerMessage}` : 'None (no message is sent for this dispatch)']);
  return (
    <EventConfirmView
      label="Dispatch summary"
      rows={rows}
      question={props.question ?? DISPATCH_MESSAGES.confirm}
      executeLabel={props.executeLabel}
      executing={props.executing}
      onBack={props.onBack}
      onExecute={props.onExecute}
    >
      {props.prices.show && <NewDispatchPrices data={props.prices.data} failed={props.prices.failed} loading={props.prices.loading} />}
      {props.deliveryWarning && (
        <Alert color="orange" variant="light" role="alert">
          {props.deliveryWarning}
        </Alert>
      )}
    </EventConfirmView>
  );
}

/**
 * The confirmation step of every kind's New-event modal (spec 3 §2.3, §2.7): what will be sent as a
 * read-only summary, what the kind adds below it (prices, a warning), the question, Back and Execute.
 */
export function EventConfirmView(props: {
  /** The summary table's name ('Dispatch summary', 'Curtailment summary'). */
  label: string;
  rows: readonly (readonly [string, string])[];
  question: string;
  executeLabel?: string;
  executing: boolean;
  onBack: () => void;
  onExecute: () => void;
  children?: ReactNode;
}) {
  return (
    <Stack>
      <Table aria-label={props.label} variant="vertical" layout="fixed" withTableBorder>
        <Table.Tbody>
          {props.rows.map(([k, v]) => (
            <Table.Tr key={k}>
              <Table.Th w="38%" maw={180}>
                {k}
              </Table.Th>
              <Table.Td style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{v}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {props.children}
      <Text fw={600}>{props.question}</Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={props.onBack} disabled={props.executing}>
          Back
        </Button>
        <Button color="red" onClick={props.onExecute} loading={props.executing}>
          {props.executeLabel ?? 'Execute'}
        </Button>
      </Group>
    </Stack>
  );
}
