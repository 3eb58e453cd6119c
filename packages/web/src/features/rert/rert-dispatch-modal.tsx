import { Modal } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { DISPATCH_STRATEGY, type DispatchDetail } from '@vpp/shared';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useTimeZone } from '../../lib/account.ts';
import { usePermission } from '../../lib/permission-gate.tsx';
import {
  type DispatchDraft,
  graphStart,
  initialDraft,
  NewDispatchConfirmView,
  NewDispatchEditView,
  NewDispatchMessageView,
  prefilledMessage,
  REFRESH_DEBOUNCE_MS,
  useDispatchConstraints,
  useDispatchPowerstations,
  useDispatchPredictions,
  withPower,
  withPowerstation,
} from '../dispatches/index.ts';
import { useCreateRert, useRertMessages, useRescheduleRert } from './api.ts';
import { createRertBody, draftOf, RERT_CAN, rertConstraints, rescheduleBody } from './rert-form.ts';
import { RERT_TEXTS, rertPath } from './rert-format.ts';

type View = 'edit' | 'message' | 'confirm';

const nowS = () => Math.floor(Date.now() / 1000);

/**
 * The New RERT Dispatch flow (spec 3 §2.5, §4.2), composed of the New Dispatch modal's views: the edit
 * form, the optional customer message edit and the confirmation (Back, Execute). Given `reschedule`,
 * the same flow moves that RERT dispatch (its VPP and power fixed) and ends in Reschedule, replacing
 * the location with its detail page.
 */
export function RertDispatchModal(props: { opened: boolean; onClose: () => void; reschedule?: DispatchDetail }) {
  const { opened, onClose, reschedule } = props;
  const zone = useTimeZone();
  const canStrategy = usePermission(DISPATCH_STRATEGY);
  const can = useMemo(() => RERT_CAN(canStrategy), [canStrategy]);
  const navigate = useNavigate();
  const fullScreen = useMediaQuery('(max-width: 48em)');
  const [view, setView] = useState<View>('edit');
  const fresh = useCallback(() => (reschedule ? draftOf(reschedule) : initialDraft({ nowS: nowS(), zone, can })), [reschedule, zone, can]);
  const [draft, setDraft] = useState<DispatchDraft>(fresh);
  const messageSaved = useRef(false);

  useEffect(() => {
    if (!opened) return;
    setView('edit');
    messageSaved.current = !!reschedule;
    setDraft(fresh());
  }, [opened, fresh, reschedule]);

  const powerstations = useDispatchPowerstations(opened);
  const messages = useRertMessages(opened);
  useEffect(() => {
    if (opened && messages.data && !messageSaved.current) setDraft((d) => ({ ...d, message: prefilledMessage(messages.data) }));
  }, [opened, messages.data]);

  const update = useCallback((f: (d: DispatchDraft) => DispatchDraft) => setDraft(f), []);
  const asked = useMemo(
    () => ({ powerstation: draft.powerstation, startTime: draft.startTime, duration: draft.duration, realPowerP: draft.realPowerP, strategy: draft.strategy }),
    [draft.powerstation, draft.startTime, draft.duration, draft.realPowerP, draft.strategy],
  );
  const [debounced] = useDebouncedValue(asked, REFRESH_DEBOUNCE_MS);
  const q = debounced.powerstation === asked.powerstation ? debounced : asked;
  const vpp = opened ? q.powerstation : null;
  const constraints = useDispatchConstraints(vpp, { duration: q.duration, realPowerP: q.realPowerP, powerFactor: null });
  const predictions = useDispatchPredictions(vpp, {
    start: graphStart(q, zone),
    dispatchStart: q.startTime,
    dispatchDuration: q.duration,
    dispatchRealPowerP: q.realPowerP,
    ...(can.strategy ? { strategy: q.strategy } : {}),
  });
  const c = rertConstraints(constraints.data);
  // A new RERT dispatch keeps its power inside the VPP's discharge range; a reschedule keeps its own.
  useEffect(() => {
    if (!reschedule && c && (draft.realPowerP < c.realPowerPMin || draft.realPowerP > c.realPowerPMax)) setDraft((d) => withPower(d, d.realPowerP, c));
  }, [c, draft.realPowerP, reschedule]);

  const create = useCreateRert();
  const move = useRescheduleRert();
  const execute = () => {
    if (reschedule)
      move.mutate(
        { id: reschedule.id, body: rescheduleBody(draft) },
        {
          onSuccess: () => {
            onClose();
            navigate(rertPath(reschedule.id), { replace: true });
          },
        },
      );
    else
      create.mutate(createRertBody(draft, can), {
        onSuccess: ({ id }) => {
          onClose();
          navigate(rertPath(id));
        },
      });
  };

  const noPrices = { show: false, data: undefined, failed: false, loading: false };
  const vppName = powerstations.data?.find((v) => v.id === draft.powerstation)?.name ?? reschedule?.powerstation.name ?? '';
  const titles: Record<View, string> = {
    edit: reschedule ? `Reschedule RERT Dispatch ${reschedule.id}` : 'New RERT Dispatch',
    message: 'Customer Message',
    confirm: reschedule ? 'Confirm Reschedule' : 'Confirm RERT Dispatch',
  };
  // A reschedule's power was checked when it was created: only the VPP's node count bounds it now.
  const editConstraints = draft.powerstation === null ? undefined : reschedule && c ? { ...c, realPowerPMin: Math.min(c.realPowerPMin, draft.realPowerP) } : c;

  return (
    <Modal opened={opened} onClose={onClose} title={titles[view]} size={view === 'message' ? 760 : 1000} fullScreen={fullScreen} closeOnClickOutside={false}>
      {view === 'edit' && (
        <NewDispatchEditView
          draft={draft}
          update={update}
          can={can}
          zone={zone}
          nowS={nowS()}
          powerstations={{ data: powerstations.data, loading: powerstations.isLoading }}
          onPowerstation={(id) => setDraft((d) => withPowerstation(d, id, can))}
          constraints={editConstraints}
          predictions={{ data: predictions.data, loading: predictions.isFetching }}
          prices={noPrices}
          onEditMessage={() => setView('message')}
          onCancel={onClose}
          onConfirm={() => setView('confirm')}
          locked={!!reschedule}
          powerHint={RERT_TEXTS.powerHint}
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
          prices={noPrices}
          executing={create.isPending || move.isPending}
          onBack={() => setView('edit')}
          onExecute={execute}
          question={reschedule ? RERT_TEXTS.rescheduleConfirm : RERT_TEXTS.executeConfirm}
          executeLabel={reschedule ? 'Reschedule' : 'Execute'}
        />
      )}
    </Modal>
  );
}
