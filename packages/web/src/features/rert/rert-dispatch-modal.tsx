import { DISPATCH_STRATEGY } from '@vpp/shared/dispatches/permissions';
import type { DispatchDetail } from '@vpp/shared/dispatches/schemas';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { useTimeZone } from '../../lib/account.ts';
import { usePermission } from '../../lib/permission-gate.tsx';
import { DispatchFlowModal, initialDraft, NO_PRICES, nowS, useDispatchFlow, withPower } from '../events/index.ts';
import { useCreateRert, useRertMessages, useRescheduleRert } from './api.ts';
import { createRertBody, draftOf, EMPTY_TERMS, RERT_CAN, rertConstraints, rescheduleBody, TERMS_MESSAGES, termsBody } from './rert-form.ts';
import { RERT_TEXTS, rertPath } from './rert-format.ts';
import { RertTermsFields, termsRows } from './rert-terms-fields.tsx';

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

  const fresh = useCallback(() => (reschedule ? draftOf(reschedule) : initialDraft({ nowS: nowS(), zone, can })), [reschedule, zone, can]);
  const messages = useRertMessages(opened);
  const flow = useDispatchFlow({ opened, fresh, keepMessage: !!reschedule, previousMessages: messages.data, zone, can });
  const { draft, setDraft } = flow;
  // A new RERT dispatch's AEMO instruction and contract (issue 33 item 3); a reschedule keeps its own.
  const [terms, setTerms] = useState(EMPTY_TERMS);
  useEffect(() => {
    if (opened) setTerms(EMPTY_TERMS);
  }, [opened]);
  const termsSent = reschedule ? null : termsBody(terms, draft.startTime, zone);

  const c = rertConstraints(flow.constraints.data);
  // A new RERT dispatch keeps its power inside the VPP's discharge range; a reschedule keeps its own.
  useEffect(() => {
    if (!reschedule && c && (draft.realPowerP < c.realPowerPMin || draft.realPowerP > c.realPowerPMax)) setDraft((d) => withPower(d, d.realPowerP, c));
  }, [c, draft.realPowerP, reschedule, setDraft]);

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
      create.mutate(
        { ...createRertBody(draft, can), ...(termsSent ?? {}) },
        {
          onSuccess: ({ id }) => {
            onClose();
            navigate(rertPath(id));
          },
        },
      );
  };

  return (
    <DispatchFlowModal
      flow={flow}
      opened={opened}
      onClose={onClose}
      titles={{
        edit: reschedule ? `Reschedule RERT Dispatch ${reschedule.id}` : 'New RERT Dispatch',
        message: 'Customer Message',
        confirm: reschedule ? 'Confirm Reschedule' : 'Confirm RERT Dispatch',
      }}
      can={can}
      zone={zone}
      previousMessages={messages.data}
      // A reschedule's power was checked when it was created: only the VPP's node count bounds it now.
      constraints={reschedule && c ? { ...c, realPowerPMin: Math.min(c.realPowerPMin, draft.realPowerP) } : c}
      prices={NO_PRICES}
      vppName={flow.powerstations.data?.find((v) => v.id === draft.powerstation)?.name ?? reschedule?.powerstation.name ?? ''}
      executing={create.isPending || move.isPending}
      onExecute={execute}
      edit={{
        locked: !!reschedule,
        powerHint: RERT_TEXTS.powerHint,
        extra: reschedule ? undefined : <RertTermsFields terms={terms} onChange={setTerms} startTime={draft.startTime} zone={zone} />,
        extraBlocker: reschedule || termsSent ? null : TERMS_MESSAGES.incomplete,
      }}
      confirm={{
        question: reschedule ? RERT_TEXTS.rescheduleConfirm : RERT_TEXTS.executeConfirm,
        executeLabel: reschedule ? 'Reschedule' : 'Execute',
        extraRows: termsRows(termsSent, zone),
      }}
    />
  );
}
