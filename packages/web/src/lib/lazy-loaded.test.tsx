import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { expect, it } from 'vitest';
import { lazyLoaded } from './routes.tsx';

const Page = () => <p>The page</p>;

it('renders a page whose module was preloaded in the first commit, without its fallback', async () => {
  const page = lazyLoaded(
    async () => ({ Page }),
    (m) => m.Page,
  );
  await page.load();
  render(
    <Suspense fallback={<p>Loading</p>}>
      <page.component />
    </Suspense>,
  );
  expect(screen.getByText('The page')).toBeVisible();
  expect(screen.queryByText('Loading')).toBeNull();
});

it('shows the fallback until a page not preloaded has loaded', async () => {
  const page = lazyLoaded(
    async () => ({ Page }),
    (m) => m.Page,
  );
  render(
    <Suspense fallback={<p>Loading</p>}>
      <page.component />
    </Suspense>,
  );
  expect(screen.getByText('Loading')).toBeVisible();
  expect(await screen.findByText('The page')).toBeVisible();
});
