import { Modal } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { canSeeMarketData, DISPATCH_POWER_FACTOR, DISPATCH_STRATEGY } from '@vpp/shared';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useAccount, useTimeZone } from '../../lib/account.ts';
import { usePermission } from '../../lib/permission-gate.tsx';
import {
  useCreateDispatch,
  useDispatchConstraints,
  useDispatchMessages,
  useDispatchPowerstations,
  useDispatchPredictions,
  useDispatchPrice,
} from './new-dispatch-api.ts';
import { NewDispatchConfirmView } from './new-dispatch-confirm-view.tsx';
import { NewDispatchEditView } from './new-dispatch-edit-view.tsx';
import { createBody, type DispatchDraft, graphStart, initialDraft, prefilledMessage, withPower, withPowerstation } from './new-dispatch-form.ts';
import { NewDispatchMessageView } from './new-dispatch-message-view.tsx';

/** Spec 3 §4.1 and §9: duration and power changes refresh constraints, predictions and prices after 300 ms. */
export const REFRESH_DEBOUNCE_MS = 300;

type View = 'edit' | 'message' | 'confirm';
const TITLES: Record<View, string> = { edit: 'New Dispatch', message: 'Customer Message', confirm: 'Confirm Dispatch' };

const nowS = () => Math.floor(Date.now() / 1000);

/**
 * The New Dispatch modal (spec 3 §2.3): the edit view, the customer message view and the
 * confirmation. On execute it toasts, refreshes every dispatch query, closes and opens the new
 * dispatch's detail page.
 */
export function NewDispatchModal(props: { opened: boolean; onClose: () => void; powerstationId?: number }): React.JSX.Element {
  const { opened, onClose, powerstationId } = props;
  const zone = useTimeZone();
  const account = useAccount().data;
  const canPowerFactor = usePermission(DISPATCH_POWER_FACTOR);
  const canStrategy = usePermission(DISPATCH_STRATEGY);
  const can = useMemo(() => ({ powerFactor: canPowerFactor, strategy: canStrategy }), [canPowerFactor, canStrategy]);
  const marketVisible = account ? canSeeMarketData(account.suborg_type, account.permissions) : false;
  const navigate = useNavigate();
  const fullScreen = useMediaQuery('(max-width: 48em)');

  const [view, setView] = useState<View>('edit');
  const [draft, setDraft] = useState<DispatchDraft>(() => initialDraft({ nowS: nowS(), zone, powerstation: powerstationId, can }));
  // The message the user has saved stays theirs; until then the latest previous message fills it.
  const messageSaved = useRef(false);

  // Each opening starts a new dispatch.
  useEffect(() => {
    if (!opened) return;
    setView('edit');
    messageSaved.current = false;
    setDraft(initialDraft({ nowS: nowS(), zone, powerstation: powerstationId, can }));
  }, [opened, zone, powerstationId, can]);

  const powerstations = useDispatchPowerstations(opened);
  const messages = useDispatchMessages(opened);
  // On every opening too (after the reset above): the messages may already be cached and unchanged.
  useEffect(() => {
    if (opened && messages.data && !messageSaved.current) setDraft((d) => ({ ...d, message: prefilledMessage(messages.data) }));
  }, [opened, messages.data]);

  const update = useCallback((f: (d: DispatchDraft) => DispatchDraft) => setDraft(f), []);

  // What the server is asked about follows the draft 300 ms behind.
  const asked = useMemo(
    () => ({
      powerstation: draft.powerstation,
      startTime: draft.startTime,
      duration: draft.duration,
      realPowerP: draft.realPowerP,
      powerFactor: draft.powerFactor,
      strategy: draft.strategy,
    }),
    [draft.powerstation, draft.startTime, draft.duration, draft.realPowerP, draft.powerFactor, draft.strategy],
  );
  const [debounced] = useDebouncedValue(asked, REFRESH_DEBOUNCE_MS);
  // Another VPP is asked about at once: its constraints bound the power controls.
  const q = debounced.powerstation === asked.powerstation ? debounced : asked;
  const vpp = opened ? q.powerstation : null;

  const constraints = useDispatchConstraints(vpp, { duration: q.duration, realPowerP: q.realPowerP, powerFactor: q.powerFactor });
  const predictions = useDispatchPredictions(vpp, {
    start: graphStart(q, zone),
    dispatchStart: q.startTime,
    dispatchDuration: q.duration,
    dispatchRealPowerP: q.realPowerP,
    ...(can.strategy ? { strategy: q.strategy } : {}),
  });
  const price = useDispatchPrice(
    marketVisible && vpp !== null
      ? {
          powerstation: vpp,
          startTime: q.startTime,
          duration: q.duration,
          realPowerP: q.realPowerP,
          ...(q.powerFactor !== null ? { powerFactor: q.powerFactor } : {}),
        }
      : null,
  );

  // Constraints for a longer duration can be narrower than the power chosen: keep it inside them.
  const c = constraints.data;
  useEffect(() => {
    if (c && (draft.realPowerP < c.realPowerPMin || draft.realPowerP > c.realPowerPMax)) setDraft((d) => withPower(d, d.realPowerP, c));
  }, [c, draft.realPowerP]);

  const create = useCreateDispatch();
  const execute = () =>
    create.mutate(createBody(draft, can), {
      onSuccess: ({ id }) => {
        onClose();
        navigate(`/virtual-power-plants/dispatches/${id}`);
      },
    });

  const prices = { show: marketVisible, data: price.data, failed: price.isError, loading: price.isFetching };
  const vppName = powerstations.data?.find((v) => v.id === draft.powerstation)?.name ?? '';

  return (
    <Modal opened={opened} onClose={onClose} title={TITLES[view]} size={view === 'message' ? 760 : 1000} fullScreen={fullScreen} closeOnClickOutside={false}>
      {view === 'edit' && (
        <NewDispatchEditView
          draft={draft}
          update={update}
          can={can}
          zone={zone}
          nowS={nowS()}
          powerstations={{ data: powerstations.data, loading: powerstations.isLoading }}
          onPowerstation={(id) => setDraft((d) => withPowerstation(d, id, can))}
          constraints={draft.powerstation === null ? undefined : c}
          predictions={{ data: predictions.data, loading: predictions.isFetching }}
          prices={prices}
          onEditMessage={() => setView('message')}
          onCancel={onClose}
          onConfirm={() => setView('confirm')}
        />
      )}
      {view === 'message' && (
        <NewDispatchMessageView
          message={draft.message}
          previous={messages.data ?? []}
          zone={zone}
          onCancel={() => setView('edit')}
          onSave={(message) => {
            messageSaved.current = true;
            setDraft((d) => ({ ...d, message }));
            setView('edit');
          }}
        />
      )}
      {view === 'confirm' && (
        <NewDispatchConfirmView
          draft={draft}
          can={can}
          vppName={vppName}
          zone={zone}
          prices={prices}
          executing={create.isPending}
          onBack={() => setView('edit')}
          onExecute={execute}
        />
      )}
    </Modal>
  );
}
