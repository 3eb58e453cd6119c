import { screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { renderScreen } from '../../test/render.tsx';
import { ForgotPasswordPage } from './forgot-password-page.tsx';

afterEach(() => vi.unstubAllGlobals());

/** Answers every call with one status and body. */
const reply = (status: number, body: unknown) =>
  vi.stubGlobal('fetch', async () => new Response(JSON.stringify(body), { status, statusText: status === 500 ? 'Internal Server Error' : '' }));

async function send(status: number, body: unknown) {
  reply(status, body);
  const { user } = renderScreen(<ForgotPasswordPage />);
  await user.type(screen.getByLabelText('Email'), 'rita@example.test');
  await user.click(screen.getByRole('button', { name: 'Send Password Reset' }));
}

it("says 'Well that didn't work. Please try again.' when the server fails, not the server's failure wording", async () => {
  await send(500, { statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' });
  expect(await screen.findByText("Well that didn't work. Please try again.")).toBeInTheDocument();
  expect(screen.queryByText('Internal Server Error')).not.toBeInTheDocument();
});

it("shows the server's own message when it refuses the request and says why", async () => {
  await send(429, {
    status: 'ERROR',
    error: 'rate_limited',
    message: 'Too many requests. Try again in a minute.',
    data: { message: 'Too many requests. Try again in a minute.' },
  });
  expect(await screen.findByText('Too many requests. Try again in a minute.')).toBeInTheDocument();
});
