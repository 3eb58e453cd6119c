import { Group, NumberInput, Slider, Stack, Text } from '@mantine/core';
import { type ReactNode, useEffect, useState } from 'react';

/**
 * An event's power (kW): a slider from `min` to `max` in `step`s with its ends marked (and 0 when it
 * lies between), and a number input beside it for an exact value, applied on Enter or when it loses
 * focus. A range with no width (nothing to dispatch or curtail) still draws, disabled, held at its
 * value. `onSlide` and `onType` get the value the user chose; the caller snaps and clamps.
 */
export function PowerControl(props: {
  label: string;
  /** The number input's accessible name. */
  inputLabel: string;
  labelId?: string;
  value: number;
  min: number;
  max: number;
  step: number;
  disabled: boolean;
  /** Marks 0 too when the range spans it (charge and discharge). */
  markZero?: boolean;
  onSlide: (kw: number) => void;
  onType: (kw: number) => void;
  hint: ReactNode;
}) {
  const { min, max, step } = props;
  const [text, setText] = useState<string | number>(props.value);
  useEffect(() => setText(props.value), [props.value]);
  const disabled = props.disabled || min === max;
  const marks = [
    { value: min, label: `${min} kW` },
    ...(props.markZero && min < 0 && max > 0 ? [{ value: 0, label: '0' }] : []),
    { value: max, label: `${max} kW` },
  ];
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500} id={props.labelId}>
        {props.label}
      </Text>
      <Group align="flex-start" wrap="nowrap" gap="md">
        <Slider
          thumbLabel={props.label}
          style={{ flex: 1 }}
          mt={8}
          mb={24}
          mx={24}
          min={min}
          max={min === max ? max + step : max}
          step={step}
          precision={1}
          value={props.value}
          disabled={disabled}
          marks={disabled ? [] : marks}
          label={(v) => `${v.toFixed(1)} kW`}
          onChange={props.onSlide}
        />
        <NumberInput
          aria-label={props.inputLabel}
          w={120}
          suffix=" kW"
          step={step}
          decimalScale={1}
          min={min}
          max={max}
          clampBehavior="blur"
          value={text}
          disabled={disabled}
          onChange={setText}
          onBlur={() => props.onType(Number(text) || 0)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') props.onType(Number(text) || 0);
          }}
        />
      </Group>
      <Text size="xs" c="dimmed">
        {props.hint}
      </Text>
    </Stack>
  );
}
