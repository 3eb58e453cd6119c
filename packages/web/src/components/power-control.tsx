import { Group, NumberInput, Slider, Stack, Text } from '@mantine/core';
import { type ReactNode, useState } from 'react';

/** The share of the slider's width a mark's label needs clear of another's. */
const MARK_GAP = 0.15;

/**
 * The slider's marks: its ends, and 0 when the range spans it (`markZero`) and 0 lies far enough from
 * both ends that the labels do not overlap ("-0.6 kW" beside "0" in a -0.6 to 5 kW range).
 */
export function powerMarks(min: number, max: number, markZero = false): { value: number; label: string }[] {
  const clear = (v: number) => Math.abs(v - min) >= (max - min) * MARK_GAP && Math.abs(max - v) >= (max - min) * MARK_GAP;
  return [
    { value: min, label: `${min} kW` },
    ...(markZero && min < 0 && max > 0 && clear(0) ? [{ value: 0, label: '0' }] : []),
    { value: max, label: `${max} kW` },
  ];
}

/**
 * An event's power (kW): a slider from `min` to `max` in `step`s with its ends marked (and 0 when it
 * lies between), and a number input beside it for an exact value, applied on Enter or when it loses
 * focus. A range with no width (nothing to dispatch or curtail) still draws, disabled, held at its
 * value. `onSlide` and `onType` get the value the user chose; the caller snaps and clamps, and once a
 * typed value is applied the box shows the value the caller kept (a +10 typed into a range ending at
 * 0 reads 0 again, never 10 beside a 0 kW request).
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
  // What the user is typing, until it is applied; otherwise the box shows the caller's value.
  const [text, setText] = useState<string | number | null>(null);
  const disabled = props.disabled || min === max;
  const marks = powerMarks(min, max, props.markZero);
  const apply = () => {
    if (text === null) return;
    setText(null);
    props.onType(Number(text) || 0);
  };
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
          value={text ?? props.value}
          disabled={disabled}
          onChange={setText}
          onBlur={apply}
          onKeyDown={(e) => {
            if (e.key === 'Enter') apply();
          }}
        />
      </Group>
      <Text size="xs" c="dimmed">
        {props.hint}
      </Text>
    </Stack>
  );
}
