import { Alert, Button, Group, Modal, NumberInput, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { CURTAILMENT_MESSAGES as M, SETPOINT_MAX_RAMP_S } from '@vpp/shared/curtailments/messages';
import { useEffect, useState } from 'react';
import { useDispatchPowerstations } from '../events/index.ts';
import { useCreateSetpoint } from './api.ts';
import { createSetpointBody, initialSetpoint, type SetpointDraft, withRamp, withSetpointLimit } from './curtailment-form.ts';

/** Only 0 or less can be typed into a limit (spec 3 §5): a positive value is ignored. */
const notPositive = ({ floatValue }: { floatValue: number | undefined }) => floatValue === undefined || floatValue <= 0;

/**
 * The New Curtailment Setpoint modal (spec 3 §2.7, §3.7, §4.3, §5): the VPP, the ramp duration (120 s)
 * and the gross and net limits (0, only 0 or less accepted). Create Setpoint toasts, closes the modal
 * and reloads the setpoint lists; a refusal toasts and keeps it open.
 */
export function NewSetpointModal(props: { opened: boolean; onClose: () => void; powerstationId?: number }) {
  const { opened, onClose, powerstationId } = props;
  const fullScreen = useMediaQuery('(max-width: 48em)');
  const [draft, setDraft] = useState<SetpointDraft>(() => initialSetpoint(powerstationId ?? null));
  useEffect(() => {
    if (opened) setDraft(initialSetpoint(powerstationId ?? null));
  }, [opened, powerstationId]);
  const powerstations = useDispatchPowerstations(opened);
  const create = useCreateSetpoint();
  const noVpps = powerstations.data !== undefined && powerstations.data.length === 0;

  const submit = () =>
    create.mutateAsync(createSetpointBody(draft)).then(
      () => onClose(),
      () => undefined,
    );

  return (
    <Modal opened={opened} onClose={onClose} title={M.newSetpointTitle} size="lg" fullScreen={fullScreen}>
      <Stack gap="md">
        {noVpps && <Alert color="yellow">{M.noVppSetpoint}</Alert>}
        <Select
          label="Virtual Power Plant"
          placeholder={powerstations.isLoading ? 'Loading…' : 'Choose a Virtual Power Plant'}
          searchable
          data={(powerstations.data ?? []).map((v) => ({ value: String(v.id), label: v.name }))}
          value={draft.powerstation === null ? null : String(draft.powerstation)}
          onChange={(v) => setDraft((d) => ({ ...d, powerstation: v === null ? null : Number(v) }))}
          comboboxProps={{ withinPortal: true }}
        />
        <NumberInput
          label="Ramp duration"
          description="Seconds over which the nodes move to the new limits."
          suffix=" s"
          min={0}
          max={SETPOINT_MAX_RAMP_S}
          allowNegative={false}
          allowDecimal={false}
          value={draft.rampDuration}
          onChange={(v) => setDraft((d) => withRamp(d, v))}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <NumberInput
            label="Gross VPP Limit (kW)"
            description="The most the VPP's solar may generate, as 0 or less."
            max={0}
            allowDecimal={false}
            isAllowed={notPositive}
            value={draft.inverterRealPowerP}
            onChange={(v) => setDraft((d) => withSetpointLimit(d, 'inverterRealPowerP', v))}
          />
          <NumberInput
            label="Net VPP Limit (kW)"
            description="The most the VPP may export at its meters, as 0 or less."
            max={0}
            allowDecimal={false}
            isAllowed={notPositive}
            value={draft.meterRealPowerP}
            onChange={(v) => setDraft((d) => withSetpointLimit(d, 'meterRealPowerP', v))}
          />
        </SimpleGrid>
        {draft.inverterRealPowerP === 0 && <Alert color="yellow">{M.grossZero}</Alert>}
        <Text size="xs" c="dimmed">
          The newest setpoint of a Virtual Power Plant is active; a curtailment overrides it for its window.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={submit} loading={create.isPending} disabled={draft.powerstation === null || noVpps}>
            {M.createSetpoint}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
