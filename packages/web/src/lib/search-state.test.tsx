import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { renderScreen } from '../test/render.tsx';
import { param, useSearchState } from './search-state.ts';

const schema = z.object({
  tab: param.oneOf(['LIST', 'MAP'], 'LIST'),
  f: param.text(),
  on: param.bool(true),
  ids: param.ids(),
});

function Probe() {
  const [state, set] = useSearchState(schema);
  return (
    <>
      <output aria-label="state">{JSON.stringify(state)}</output>
      <button type="button" onClick={() => set({ tab: 'MAP', f: 'solar' })}>
        Map
      </button>
      <button type="button" onClick={() => set({ f: '', ids: [] }, { replace: true })}>
        Clear
      </button>
    </>
  );
}

describe('useSearchState', () => {
  it("reads the query with the schema's defaults for what is absent or invalid", () => {
    renderScreen(<Probe />, { url: '/x?tab=GRID&on=false&ids=3,7' });
    expect(JSON.parse(screen.getByRole('status', { name: 'state' }).textContent ?? '')).toEqual({ tab: 'LIST', f: '', on: false, ids: [3, 7] });
  });

  it('merges a patch into the query, keeping the other parameters, and pushes a history entry', async () => {
    const { user, router } = renderScreen(<Probe />, { url: '/x?limit=50&offset=0' });
    await user.click(screen.getByRole('button', { name: 'Map' }));
    expect(router.state.location.search).toBe('?limit=50&offset=0&tab=MAP&f=solar');
    expect(router.state.historyAction).toBe('PUSH');
  });

  it("removes a parameter set to '', writes an empty list as an empty value, and can replace the entry", async () => {
    const { user, router } = renderScreen(<Probe />, { url: '/x?f=solar&ids=1' });
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(router.state.location.search).toBe('?ids=');
    expect(router.state.historyAction).toBe('REPLACE');
  });
});
