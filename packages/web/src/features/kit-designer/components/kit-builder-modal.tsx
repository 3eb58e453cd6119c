import { Button, Group, Modal, NumberInput, SegmentedControl, Stack, Stepper, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { KIT_MESSAGES } from '@vpp/shared/kit-designer/messages';
import { defaultDesign, type KitCatalogue, resizeSystems, systemCounts } from '@vpp/shared/kit-designer/rules';
import { type InverterSystem, KIT_LIMITS, type KitDesign, type KitDesignErrors, type KitOrder } from '@vpp/shared/kit-designer/schemas';
import { useState } from 'react';
import { useCheckDesign, useEmailOrder } from '../api.ts';
import { InverterSystemCard } from './inverter-system-card.tsx';
import { KitSummary } from './kit-summary.tsx';

const STEPS = ['Site Details', 'Configure Inverters', 'Summary'] as const;
// A counter, not crypto.randomUUID: that exists only in secure contexts (https or localhost).
let lastId = 0;
const newId = () => `sys-${++lastId}`;

/**
 * The three-step builder of spec 2 §4: Site Details, Configure Inverters (Next submits the design;
 * an order moves on to Summary, errors attach to their fields), Summary (Back clears the order;
 * e-mailing shows 'Email sent' until a new order). Closing unmounts it, which resets it.
 */
export function KitBuilderModal({ catalogue, onClose }: { catalogue: KitCatalogue; onClose: () => void }) {
  const [step, setStep] = useState(0);
  const [design, setDesign] = useState<KitDesign>(defaultDesign);
  const [errors, setErrors] = useState<KitDesignErrors | null>(null);
  const [order, setOrder] = useState<KitOrder | null>(null);
  const [emailed, setEmailed] = useState(false);
  const [referenceNotes, setReferenceNotes] = useState('');
  const check = useCheckDesign();
  const email = useEmailOrder();

  const resize = (existing: boolean, value: string | number) => {
    const n = typeof value === 'number' ? value : Number.parseInt(value, 10);
    if (!Number.isInteger(n) || n < 0 || n > (existing ? KIT_LIMITS.existingSystems : KIT_LIMITS.newSystems)) return;
    setDesign((d) => resizeSystems(d, existing, n, newId));
  };
  const changeSystem = (id: string, system: InverterSystem) => {
    setDesign((d) => ({ ...d, inverterSystems: { ...d.inverterSystems, [id]: system } }));
    // The server's errors for this system no longer describe it.
    setErrors((e) => {
      if (!e?.inverterSystems[id]) return e;
      const { [id]: _gone, ...rest } = e.inverterSystems;
      return { ...e, inverterSystems: rest };
    });
  };
  const submit = () =>
    check.mutate(design, {
      onSuccess: (data) => {
        if ('order' in data) {
          setOrder(data.order);
          setErrors(null);
          setEmailed(false);
          setStep(2);
        } else {
          setErrors(data.errors);
          if (data.errors.gridPhases) setStep(0);
        }
      },
    });
  const back = () => {
    if (step === 2) setOrder(null);
    setStep((s) => Math.max(0, s - 1));
  };
  // A step already passed can be gone back to from the stepper; leaving Summary clears the order.
  const goBackTo = (s: number) => {
    if (s >= step) return;
    setOrder(null);
    setStep(s);
  };
  const sendEmail = () => {
    if (!order) return;
    email.mutate({ order, design, referenceNotes }, { onSuccess: () => setEmailed(true) });
  };

  return (
    <Modal opened onClose={onClose} title={KIT_MESSAGES.title} size="xl" closeOnClickOutside={false} closeButtonProps={{ 'aria-label': 'Close' }}>
      <Stepper active={step} size="sm" allowNextStepsSelect={false} onStepClick={goBackTo}>
        <Stepper.Step label={STEPS[0]}>
          <SiteDetailsStep
            design={design}
            error={errors?.gridPhases}
            onGridPhases={(gridPhases) => {
              setDesign((d) => ({ ...d, gridPhases }));
              setErrors((e) => (e ? { ...e, gridPhases: undefined } : e));
            }}
            onResize={resize}
          />
        </Stepper.Step>
        <Stepper.Step label={STEPS[1]}>
          <InvertersStep design={design} catalogue={catalogue} errors={errors} onChange={changeSystem} />
        </Stepper.Step>
        <Stepper.Step label={STEPS[2]}>
          {order && (
            <KitSummary
              order={order}
              referenceNotes={referenceNotes}
              onReferenceNotes={setReferenceNotes}
              emailed={emailed}
              sending={email.isPending}
              onEmail={sendEmail}
            />
          )}
        </Stepper.Step>
      </Stepper>
      <StepButtons step={step} checking={check.isPending} onClose={onClose} onBack={back} onNext={() => setStep(1)} onSubmit={submit} />
    </Modal>
  );
}

/** The buttons under each step: Cancel or Back, then Next (Configure Inverters' submits the design), or Close on Summary. */
function StepButtons(props: { step: number; checking: boolean; onClose: () => void; onBack: () => void; onNext: () => void; onSubmit: () => void }) {
  const { step } = props;
  return (
    <Group justify="space-between" mt="xl">
      <Button variant="default" onClick={step === 0 ? props.onClose : props.onBack}>
        {step === 0 ? 'Cancel' : 'Back'}
      </Button>
      {step === 0 && <Button onClick={props.onNext}>Next</Button>}
      {step === 1 && (
        <Button onClick={props.onSubmit} loading={props.checking}>
          Next
        </Button>
      )}
      {step === 2 && (
        <Button variant="default" onClick={props.onClose}>
          Close
        </Button>
      )}
    </Group>
  );
}

/** Step 1, Site Details: the grid's phases, and how many existing and new inverters the site has. */
function SiteDetailsStep(props: {
  design: KitDesign;
  error?: string;
  onGridPhases: (phases: number) => void;
  onResize: (existing: boolean, value: string | number) => void;
}) {
  const { design, error, onGridPhases, onResize } = props;
  const counts = systemCounts(design);
  const phone = useMediaQuery('(max-width: 30em)');
  return (
    <Stack gap="md" mt="md">
      <Stack gap={4}>
        <Text size="sm" fw={500} id="grid-phases-label">
          Grid phases
        </Text>
        <SegmentedControl
          aria-labelledby="grid-phases-label"
          // On a phone the three choices do not fit side by side: they stack.
          orientation={phone ? 'vertical' : 'horizontal'}
          w={phone ? '100%' : undefined}
          value={String(design.gridPhases)}
          onChange={(v) => onGridPhases(Number(v))}
          data={[
            { value: '1', label: 'Single-phase' },
            { value: '2', label: 'Two-phase' },
            { value: '3', label: 'Three-phase' },
          ]}
        />
        {error && (
          <Text size="xs" c="red" role="alert">
            {error}
          </Text>
        )}
      </Stack>
      <Group grow>
        <NumberInput
          label="Existing inverters"
          description="Already on site: metering only"
          min={0}
          max={KIT_LIMITS.existingSystems}
          clampBehavior="strict"
          allowDecimal={false}
          value={counts.existing}
          onChange={(v) => onResize(true, v)}
        />
        <NumberInput
          label="New inverters"
          description="To fit: ordered with the kit"
          min={0}
          max={KIT_LIMITS.newSystems}
          clampBehavior="strict"
          allowDecimal={false}
          value={counts.new}
          onChange={(v) => onResize(false, v)}
        />
      </Group>
    </Stack>
  );
}

/** Step 2, Configure Inverters: one card per inverter system, with the server's errors for it. */
function InvertersStep(props: {
  design: KitDesign;
  catalogue: KitCatalogue;
  errors: KitDesignErrors | null;
  onChange: (id: string, system: InverterSystem) => void;
}) {
  const { design, catalogue, errors, onChange } = props;
  const systems = Object.entries(design.inverterSystems);
  return (
    <Stack gap="md" mt="md">
      {systems.length === 0 && <Text c="dimmed">No inverter systems: the kit meters the grid connection only.</Text>}
      {systems.map(([id, s], i) => (
        <InverterSystemCard
          key={id}
          index={i}
          system={s}
          catalogue={catalogue}
          gridPhases={design.gridPhases}
          errors={errors?.inverterSystems[id]}
          onChange={(next) => onChange(id, next)}
        />
      ))}
    </Stack>
  );
}
