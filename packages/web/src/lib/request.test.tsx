import { notifications } from '@mantine/notifications';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { renderScreen } from '../test/render.tsx';
import { request } from './request.ts';
import { toast } from './toasts.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  notifications.clean();
});

/** Answers each call with the next of `replies` (status, body). */
function replies(...list: [number, unknown][]) {
  const queue = [...list];
  vi.stubGlobal('fetch', async () => {
    const [status, body] = queue.shift() ?? [500, null];
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
}

it('shows the same toast once however often it is raised', async () => {
  renderScreen(<p>page</p>);
  toast('success', 'Fleet updated');
  toast('success', 'Fleet updated');
  toast('success', 'Fleet updated');
  expect(await screen.findByText('Fleet updated')).toBeInTheDocument();
  expect(screen.getAllByText('Fleet updated')).toHaveLength(1);
});

it('clears the error an action left when the action is tried again, so its success stands alone', async () => {
  renderScreen(<p>page</p>);
  replies([400, { status: 'ERROR', message: 'Name is taken.' }], [200, { status: 'OK' }]);
  const save = () => request('/api/things/7', { method: 'PUT', body: {}, errorToast: 'Failed to save.', success: { title: 'Saved.' } });
  await expect(save()).rejects.toThrow('Name is taken.');
  expect(await screen.findByText('Failed to save.')).toBeInTheDocument();
  expect(screen.getByText('Name is taken.')).toBeInTheDocument();
  await save();
  expect(await screen.findByText('Saved.')).toBeInTheDocument();
  await waitFor(() => expect(screen.queryByText('Failed to save.')).not.toBeInTheDocument());
  expect(screen.queryByText('Name is taken.')).not.toBeInTheDocument();
});

it('leaves the toasts of other actions and of loads alone', async () => {
  renderScreen(<p>page</p>);
  replies([500, null], [200, { status: 'OK' }]);
  await expect(request('/api/list', { errorToast: 'Failed to load things.' })).rejects.toThrow();
  expect(await screen.findByText('Failed to load things.')).toBeInTheDocument();
  await request('/api/things/7', { method: 'PUT', body: {}, success: { title: 'Saved.' } });
  expect(await screen.findByText('Saved.')).toBeInTheDocument();
  expect(screen.getByText('Failed to load things.')).toBeInTheDocument();
});
