import { Center, Loader } from '@mantine/core';
import { useEffect } from 'react';
import { Outlet, useMatches } from 'react-router';
import { bootSession } from '../features/auth/api.ts';
import { LoginPanel } from '../features/auth/login-page.tsx';
import { useSession } from '../lib/session.ts';
import { LoginShell } from './login-shell.tsx';
import { MainShell } from './main-shell.tsx';

let booted = false;

/** Chooses the shell: public pages and the login panel in the login shell, the rest in the main shell. */
export function Root() {
  const { loginStatus } = useSession();
  const isPublic = useMatches().some((m) => (m.handle as { public?: boolean } | undefined)?.public);
  useEffect(() => {
    if (!booted) {
      booted = true;
      void bootSession();
    }
  }, []);

  if (isPublic) return <Outlet />;
  if (loginStatus === 'FETCHING') {
    return (
      <Center mih="100vh">
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  if (loginStatus !== 'LOGGED_IN') {
    return (
      <LoginShell>
        <LoginPanel />
      </LoginShell>
    );
  }
  return (
    <MainShell>
      <Outlet />
    </MainShell>
  );
}
