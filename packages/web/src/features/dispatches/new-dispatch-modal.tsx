import { DISPATCH_POWER_FACTOR, DISPATCH_STRATEGY } from '@vpp/shared/dispatches/permissions';
import { canSeeMarketData } from '@vpp/shared/market/rules';
import { useCallback, useEffect, useMemo } from 'react';
import { useNavigate } from 'react-router';
import { useAccount, useTimeZone } from '../../lib/account.ts';
import { usePermission } from '../../lib/permission-gate.tsx';
import { createBody, DispatchFlowModal, type DispatchFlowView, initialDraft, nowS, useDispatchFlow, withPower } from '../events/index.ts';
import { useCreateDispatch, useDispatchMessages, useDispatchPrice } from './new-dispatch-api.ts';

const TITLES: Record<DispatchFlowView, string> = { edit: 'New Dispatch', message: 'Customer Message', confirm: 'Confirm Dispatch' };

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

  const fresh = useCallback(() => initialDraft({ nowS: nowS(), zone, powerstation: powerstationId, can }), [zone, powerstationId, can]);
  const messages = useDispatchMessages(opened);
  const flow = useDispatchFlow({ opened, fresh, previousMessages: messages.data, zone, can });
  const { draft, setDraft, asking: q, vpp } = flow;

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
  const c = flow.constraints.data;
  useEffect(() => {
    if (c && (draft.realPowerP < c.realPowerPMin || draft.realPowerP > c.realPowerPMax)) setDraft((d) => withPower(d, d.realPowerP, c));
  }, [c, draft.realPowerP, setDraft]);

  const create = useCreateDispatch();
  const execute = () =>
    create.mutate(createBody(draft, can), {
      onSuccess: ({ id }) => {
        onClose();
        navigate(`/virtual-power-plants/dispatches/${id}`);
      },
    });

  return (
    <DispatchFlowModal
      flow={flow}
      opened={opened}
      onClose={onClose}
      titles={TITLES}
      can={can}
      zone={zone}
      previousMessages={messages.data}
      constraints={c}
      prices={{ show: marketVisible, data: price.data, failed: price.isError, loading: price.isFetching }}
      vppName={flow.powerstations.data?.find((v) => v.id === draft.powerstation)?.name ?? ''}
      executing={create.isPending}
      onExecute={execute}
    />
  );
}
