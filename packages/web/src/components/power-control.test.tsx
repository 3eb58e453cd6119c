import { fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderScreen } from '../test/render.tsx';
import { PowerControl, powerMarks } from './power-control.tsx';

/** A caller that clamps as the modals do: the kept value is within min..max. */
function Clamped(props: { min: number; max: number }) {
  const [kw, setKw] = useState(0);
  const clamp = (v: number) => setKw(Math.min(props.max, Math.max(props.min, v)));
  return (
    <>
      <PowerControl
        label="Power (kW)"
        inputLabel="Power"
        value={kw}
        min={props.min}
        max={props.max}
        step={0.1}
        disabled={false}
        markZero
        onSlide={clamp}
        onType={clamp}
        hint=""
      />
      <output>Request {kw} kW</output>
    </>
  );
}

describe('PowerControl', () => {
  it('a power typed beyond the range shows the kept value once applied, not what was typed', async () => {
    const { user } = renderScreen(<Clamped min={-20} max={0} />);
    const input = screen.getByRole('textbox', { name: 'Power' });
    await user.clear(input);
    await user.type(input, '10{Enter}');
    expect(screen.getByText('Request 0 kW')).toBeInTheDocument();
    expect(input).toHaveValue('0 kW');
    await user.clear(input);
    await user.type(input, '-30{Enter}');
    expect(screen.getByText('Request -20 kW')).toBeInTheDocument();
    expect(input).toHaveValue('-20 kW');
    fireEvent.change(input, { target: { value: '-7' } });
    fireEvent.blur(input);
    expect(screen.getByText('Request -7 kW')).toBeInTheDocument();
  });

  it('marks 0 only where its label keeps clear of the ends', () => {
    expect(powerMarks(-10, 10, true).map((m) => m.label)).toEqual(['-10 kW', '0', '10 kW']);
    expect(powerMarks(-0.6, 5, true).map((m) => m.label)).toEqual(['-0.6 kW', '5 kW']);
    expect(powerMarks(-10, 0.5, true).map((m) => m.label)).toEqual(['-10 kW', '0.5 kW']);
    expect(powerMarks(-10, 10).map((m) => m.label)).toEqual(['-10 kW', '10 kW']);
  });
});
