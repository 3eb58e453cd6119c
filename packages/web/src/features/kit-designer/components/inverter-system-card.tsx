import { Card, Group, Image, Select, Stack, Switch, Text } from '@mantine/core';
import { KIT_MESSAGES } from '@vpp/shared/kit-designer/messages';
import { batteryChoices, changeInverter, changePvConnected, changePvPhases, type KitCatalogue } from '@vpp/shared/kit-designer/rules';
import type { InverterSystem, SystemErrors } from '@vpp/shared/kit-designer/schemas';

const NOT_CONNECTED = 'none';
const watts = (w: number) => `${(w / 1000).toFixed(w % 1000 === 0 ? 0 : 1)} kW`;

/** One inverter system: inverter, battery, solar and its phases, with the change rules of spec 2 §4. */
export function InverterSystemCard(props: {
  index: number;
  system: InverterSystem;
  catalogue: KitCatalogue;
  gridPhases: number;
  errors?: SystemErrors;
  onChange: (next: InverterSystem) => void;
}) {
  const { system: s, catalogue, errors, onChange } = props;
  const inverter = catalogue.inverterTypes.find((t) => t.id === s.inverter);
  const battery = catalogue.batteryTypes.find((t) => t.id === s.battery);
  const choices = batteryChoices(inverter, catalogue.batteryTypes);
  // A battery chosen for another inverter stays shown, with its error, until it is changed.
  const incompatible = battery && inverter && !inverter.compatibleBatteryTypes.includes(battery.id);
  const batteryData = [
    ...(choices.notConnected ? [{ value: NOT_CONNECTED, label: KIT_MESSAGES.notConnected }] : []),
    ...choices.batteries.map((b) => ({ value: String(b.id), label: b.displayName })),
    ...(incompatible ? [{ value: String(battery.id), label: battery.displayName }] : []),
  ];
  const batteryValue = s.battery === null ? (inverter && choices.notConnected ? NOT_CONNECTED : null) : String(s.battery);
  const name = `System ${props.index + 1}`;
  return (
    <Card withBorder padding="md" aria-label={name} role="group">
      <Group align="flex-start" wrap="nowrap" gap="lg">
        <Stack gap={4} align="center" w={96}>
          <Image
            src={inverter?.imageUrl ?? '/kit/hybrid-inverter.svg'}
            alt={inverter?.displayName ?? 'No inverter chosen'}
            w={80}
            h={80}
            fit="contain"
            opacity={inverter ? 1 : 0.3}
          />
          {battery && <Image src={battery.imageUrl} alt={battery.displayName} w={56} h={56} fit="contain" />}
        </Stack>
        <Stack gap="sm" style={{ flex: 1 }}>
          <Text fw={600}>
            {name}{' '}
            <Text span c="dimmed" size="sm">
              ({s.existing ? 'existing' : 'new'})
            </Text>
          </Text>
          <Select
            label="Inverter"
            placeholder="Choose an inverter"
            searchable
            data={catalogue.inverterTypes.map((t) => ({ value: String(t.id), label: t.displayName }))}
            value={s.inverter === null ? null : String(s.inverter)}
            onChange={(v) => onChange(changeInverter(s, v === null ? null : (catalogue.inverterTypes.find((t) => String(t.id) === v) ?? null)))}
            error={errors?.inverter}
            description={
              inverter
                ? `${inverter.manufacturer}, ${inverter.phases === 3 ? 'three-phase' : 'single-phase'}, ${watts(inverter.ratedPowerW)}${inverter.allInOne ? ', all-in-one' : ''}`
                : undefined
            }
          />
          <Select
            label="Battery"
            placeholder={inverter ? 'Choose a battery' : 'Choose the inverter first'}
            disabled={!inverter}
            data={batteryData}
            value={batteryValue}
            onChange={(v) => onChange({ ...s, battery: v === null || v === NOT_CONNECTED ? null : Number(v) })}
            error={incompatible ? KIT_MESSAGES.batteryIncompatible : errors?.battery}
          />
          <Group align="flex-end" gap="lg">
            <Switch
              label="Solar connected"
              checked={s.pvConnected}
              disabled={inverter?.pvCompatible === false}
              onChange={(e) => onChange(changePvConnected(s, e.currentTarget.checked))}
              error={errors?.pvConnected}
            />
            {inverter?.pvCompatible === null && (
              <Select
                label="Solar phases"
                placeholder="Choose"
                w={180}
                data={[
                  { value: '1', label: 'Single-phase' },
                  { value: '3', label: 'Three-phase' },
                ]}
                value={s.pvPhases === null ? null : String(s.pvPhases)}
                onChange={(v) => onChange(changePvPhases(s, v === null ? null : Number(v)))}
                error={errors?.pvPhases}
              />
            )}
          </Group>
          {errors?.pvPhases && inverter?.pvCompatible !== null && (
            <Text size="xs" c="red">
              {errors.pvPhases}
            </Text>
          )}
        </Stack>
      </Group>
    </Card>
  );
}
