import { Modal } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import type { DispatchConstraints } from '@vpp/shared/dispatches/schemas';
import type { DispatchPriceReply } from '@vpp/shared/market/schemas';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useDispatchPowerstations } from './event-api.ts';
import { NewDispatchConfirmView } from './event-confirm-view.tsx';
import { type DispatchDraft, type DraftPermissions, graphStart, prefilledMessage, withPowerstation } from './event-draft.ts';
import { type EditViewProps, NewDispatchEditView } from './event-edit-view.tsx';
import { useDispatchConstraints, useDispatchPredictions } from './event-flow-api.ts';
import { REFRESH_DEBOUNCE_MS } from './event-format.ts';
import { EventMessageView } from './event-message-view.tsx';

export type DispatchFlowView = 'edit' | 'message' | 'confirm';

export const nowS = () => Math.floor(Date.now() / 1000);

type PreviousMessages = React.ComponentProps<typeof EventMessageView>['previous'];

/**
 * The state of a dispatch modal (a new dispatch, a new or rescheduled RERT dispatch): the draft, reset
 * at each opening from `fresh`; its message prefilled from the latest previous one until the user
 * saves their own (or `keepMessage`, a reschedule's own message, is set); and what the server is asked
 * about, following the draft 300 ms behind, with the constraints and predictions of that.
 */
export function useDispatchFlow(opts: {
  opened: boolean;
  fresh: () => DispatchDraft;
  keepMessage?: boolean;
  previousMessages: PreviousMessages | undefined;
  zone: string;
  can: DraftPermissions;
}) {
  const { opened, fresh, keepMessage = false, previousMessages, zone, can } = opts;
  const [view, setView] = useState<DispatchFlowView>('edit');
  const [draft, setDraft] = useState<DispatchDraft>(fresh);
  const messageSaved = useRef(keepMessage);

  // Each opening starts afresh.
  useEffect(() => {
    if (!opened) return;
    setView('edit');
    messageSaved.current = keepMessage;
    setDraft(fresh());
  }, [opened, fresh, keepMessage]);

  // On every opening too (after the reset above): the messages may already be cached and unchanged.
  useEffect(() => {
    if (opened && previousMessages && !messageSaved.current) setDraft((d) => ({ ...d, message: prefilledMessage(previousMessages) }));
  }, [opened, previousMessages]);

  const update = useCallback((f: (d: DispatchDraft) => DispatchDraft) => setDraft(f), []);
  const saveMessage = useCallback((message: DispatchDraft['message']) => {
    messageSaved.current = true;
    setDraft((d) => ({ ...d, message }));
    setView('edit');
  }, []);

  const asked = useMemo(
    () => ({
      powerstation: draft.powerstation,
      startTime: draft.startTime,
      duration: draft.duration,
      realPowerP: draft.realPowerP,
      powerFactor: can.powerFactor ? draft.powerFactor : null,
      strategy: draft.strategy,
    }),
    [draft.powerstation, draft.startTime, draft.duration, draft.realPowerP, draft.powerFactor, draft.strategy, can.powerFactor],
  );
  const [debounced] = useDebouncedValue(asked, REFRESH_DEBOUNCE_MS);
  // Another VPP is asked about at once: its constraints bound the power controls.
  const asking = debounced.powerstation === asked.powerstation ? debounced : asked;
  const vpp = opened ? asking.powerstation : null;

  const powerstations = useDispatchPowerstations(opened);
  const constraints = useDispatchConstraints(vpp, {
    startTime: asking.startTime,
    duration: asking.duration,
    realPowerP: asking.realPowerP,
    powerFactor: asking.powerFactor,
  });
  const predictions = useDispatchPredictions(vpp, {
    start: graphStart(asking, zone),
    dispatchStart: asking.startTime,
    dispatchDuration: asking.duration,
    dispatchRealPowerP: asking.realPowerP,
    ...(can.strategy ? { strategy: asking.strategy } : {}),
  });

  return { view, setView, draft, setDraft, update, saveMessage, asking, vpp, powerstations, constraints, predictions };
}

export type DispatchFlow = ReturnType<typeof useDispatchFlow>;

type Prices = EditViewProps['prices'];
export const NO_PRICES: Prices = { show: false, data: undefined as DispatchPriceReply | undefined, failed: false, loading: false };

/** The modal of a dispatch flow: the edit view, the customer message view and the confirmation. */
export function DispatchFlowModal(props: {
  flow: DispatchFlow;
  opened: boolean;
  onClose: () => void;
  titles: Record<DispatchFlowView, string>;
  can: DraftPermissions;
  zone: string;
  previousMessages: PreviousMessages | undefined;
  constraints: DispatchConstraints | undefined;
  prices: Prices;
  vppName: string;
  executing: boolean;
  onExecute: () => void;
  edit?: Pick<EditViewProps, 'locked' | 'powerHint' | 'extra' | 'extraBlocker'>;
  confirm?: { question?: string; executeLabel?: string; extraRows?: [string, string][] };
}): React.JSX.Element {
  const { flow, opened, onClose, can, zone, prices } = props;
  const { view, setView, draft } = flow;
  const fullScreen = useMediaQuery('(max-width: 48em)');
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={props.titles[view]}
      size={view === 'message' ? 760 : 1000}
      fullScreen={fullScreen}
      closeOnClickOutside={false}
    >
      {view === 'edit' && (
        <NewDispatchEditView
          draft={draft}
          update={flow.update}
          can={can}
          zone={zone}
          nowS={nowS()}
          powerstations={{ data: flow.powerstations.data, loading: flow.powerstations.isLoading }}
          onPowerstation={(id) => flow.setDraft((d) => withPowerstation(d, id, can))}
          constraints={draft.powerstation === null ? undefined : props.constraints}
          predictions={{ data: flow.predictions.data, loading: flow.predictions.isFetching }}
          prices={prices}
          onEditMessage={() => setView('message')}
          onCancel={onClose}
          onConfirm={() => setView('confirm')}
          {...props.edit}
        />
      )}
      {view === 'message' && (
        <EventMessageView
          message={draft.message}
          previous={props.previousMessages ?? []}
          zone={zone}
          onCancel={() => setView('edit')}
          onSave={flow.saveMessage}
        />
      )}
      {view === 'confirm' && (
        <NewDispatchConfirmView
          draft={draft}
          can={can}
          vppName={props.vppName}
          zone={zone}
          prices={prices}
          deliveryWarning={flow.predictions.data?.delivery?.warning ?? null}
          executing={props.executing}
          onBack={() => setView('edit')}
          onExecute={props.onExecute}
          {...props.confirm}
        />
      )}
    </Modal>
  );
}
