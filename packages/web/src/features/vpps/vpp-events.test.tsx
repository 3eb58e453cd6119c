import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderScreen, stubFetch, testAccount } from '../../test/render.tsx';
import { VppEvents } from './vpp-events.tsx';

const soon = Math.floor(Date.now() / 1000) + 3600;
const event = (id: number, type: string) => ({ id, type, startTime: soon, duration: 3600, state: 'UPCOMING', powerstation: { id: 7, name: 'Harbour' } });

function renderEvents(permissions: string[]) {
  const api = stubFetch({
    '/api/powerstations/7/events': { status: 'OK', events: [event(1, 'DISPATCH'), event(2, 'RERT'), event(3, 'GRID_OUTAGE'), event(4, 'CURTAILMENT')] },
  });
  vi.stubGlobal('fetch', api.fetch);
  return renderScreen(<VppEvents id={7} />, { url: '/virtual-power-plants/manage/7', account: testAccount(permissions) });
}

describe("a VPP's events", () => {
  it('links each kind of event to its detail page for those who may see that kind', async () => {
    renderEvents(['fleet.powerstations.any', 'fleet.dispatches.any', 'fleet.rert.any', 'fleet.powerstations.gridOutages.any', 'fleet.curtailments.any']);
    expect(await screen.findByRole('link', { name: 'Dispatch' })).toHaveAttribute('href', '/virtual-power-plants/dispatches/1');
    expect(screen.getByRole('link', { name: 'RERT' })).toHaveAttribute('href', '/virtual-power-plants/rert-dispatches/2');
    expect(screen.getByRole('link', { name: 'Grid Outage' })).toHaveAttribute('href', '/virtual-power-plants/grid-outages/3');
    expect(screen.getByRole('link', { name: 'Curtailment' })).toHaveAttribute('href', '/virtual-power-plants/feed-in-management/4');
  });

  it('names an event without a link when the user may not open its kind', async () => {
    renderEvents(['fleet.powerstations.view']);
    expect(await screen.findByText('RERT')).toBeInTheDocument();
    expect(screen.getByText('Curtailment')).toBeInTheDocument();
    expect(screen.queryAllByRole('link')).toEqual([]);
  });
});
