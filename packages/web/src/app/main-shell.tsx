import { Alert, Anchor, AppShell, Burger, Group, Image, Menu, NavLink, ScrollArea, Text, Title, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconChevronDown, IconLogout, IconSettings } from '@tabler/icons-react';
import { APP_TITLE } from '@vpp/shared/constants';
import { MESSAGES } from '@vpp/shared/messages';
import { satisfies } from '@vpp/shared/permissions/registry';
import { type FocusEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useSaveTimezone } from '../features/account/index.ts';
import { logout } from '../features/auth/index.ts';
import { NotificationBell } from '../features/notifications/index.ts';
import { browserTimeZone, useAccount } from '../lib/account.ts';
import { session, useSession } from '../lib/session.ts';
import { NAV_GROUPS } from './navigation.tsx';
import { ROUTES } from './routes.tsx';

/** The signed-in shell: header with the user menu, the sidebar, the time zone banner, the page. */
export function MainShell({ children }: { children: ReactNode }) {
  const [opened, { toggle, close }] = useDisclosure();
  // On a phone the drawer covers the page: any navigation (a sidebar item, a link, Back) closes it.
  const { pathname, search } = useLocation();
  const at = `${pathname}${search}`;
  const [openedAt, setOpenedAt] = useState(at);
  if (openedAt !== at) {
    setOpenedAt(at);
    if (opened) close();
  }
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 250, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header>
        {/* One line at any width: on a phone the app's name gives way to its logo, and a long user name is cut with an ellipsis. */}
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Anchor component={Link} to="/" underline="never" c="inherit" aria-label={APP_TITLE}>
              <Group gap="xs" wrap="nowrap">
                <Image src="/logo.svg" alt="" w={30} h={30} />
                <Title order={2} size="h4" visibleFrom="sm">
                  {APP_TITLE}
                </Title>
              </Group>
            </Anchor>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <NotificationBell />
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Main navigation">
        <ScrollArea>
          <Sidebar onPick={close} />
        </ScrollArea>
      </AppShell.Navbar>
      <AppShell.Main>
        <TimezoneBanner />
        {children}
      </AppShell.Main>
    </AppShell>
  );
}

/** Sidebar groups built from the route table: an item shows only when its page exists and its permission is held. */
function Sidebar({ onPick }: { onPick: () => void }) {
  const { data: account } = useAccount();
  const { pathname } = useLocation();
  const held = account?.permissions ?? [];
  const entries = ROUTES.filter((r) => r.nav && (r.nav.permission === null || satisfies(held, r.nav.permission)));
  return (
    <nav>
      {NAV_GROUPS.map((group) => {
        const items = entries.filter((r) => r.nav?.group === group.label).sort((a, b) => (a.nav?.order ?? 0) - (b.nav?.order ?? 0));
        if (!items.length) return null;
        const Icon = group.icon;
        const link = (r: (typeof items)[number], label: string, icon?: ReactNode) => (
          <NavLink
            key={r.path}
            component={Link}
            to={`${r.path}${r.nav?.search ? `?${r.nav.search}` : ''}`}
            label={label}
            leftSection={icon}
            active={r.path === '/' ? pathname === '/' : pathname.startsWith(r.path)}
            // The page already shown, picked again, does not navigate: the drawer closes all the same.
            onClick={onPick}
          />
        );
        if (items.length === 1 && items[0].nav?.label === group.label) return link(items[0], group.label, <Icon size={18} />);
        return (
          <NavLink key={group.label} label={group.label} leftSection={<Icon size={18} />} defaultOpened childrenOffset={28}>
            {items.map((r) => link(r, r.nav?.label ?? ''))}
          </NavLink>
        );
      })}
    </nav>
  );
}

/**
 * The user menu opens on click and closes on blur: when focus leaves both the button and the menu
 * (a click elsewhere, Tab away, another window), not only on a click outside.
 */
function UserMenu() {
  const { data: account } = useAccount();
  const navigate = useNavigate();
  const [opened, setOpened] = useState(false);
  const target = useRef<HTMLButtonElement>(null);
  const dropdown = useRef<HTMLDivElement>(null);
  const closeOnBlur = (e: FocusEvent) => {
    const next = e.relatedTarget as Node | null;
    if (next && (target.current?.contains(next) || dropdown.current?.contains(next))) return;
    setOpened(false);
  };
  return (
    <Menu opened={opened} onChange={setOpened} position="bottom-end" width={240} trigger="click" closeOnItemClick>
      <Menu.Target>
        <UnstyledButton ref={target} aria-label={`${account?.name ?? ''} user menu`.trim()} onBlur={closeOnBlur}>
          <Group gap={6} wrap="nowrap">
            <Text size="sm" fw={500} truncate="end" maw={{ base: 110, sm: 240 }}>
              {account?.name}
            </Text>
            <IconChevronDown size={14} />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown ref={dropdown} onBlur={closeOnBlur}>
        <Menu.Label>Logged in as</Menu.Label>
        <Text px="sm" size="sm" fw={600}>
          {account?.name}
        </Text>
        <Text px="sm" pb="xs" size="xs" c="dimmed">
          {account?.suborg_name}
        </Text>
        <Menu.Divider />
        <Menu.Item leftSection={<IconSettings size={16} />} onClick={() => navigate('/user/settings')}>
          User Settings
        </Menu.Item>
        <Menu.Item leftSection={<IconLogout size={16} />} color="red" onClick={() => void logout()}>
          Log Out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/**
 * Saves the browser's time zone when the account has none; when they differ, says so (the browser's
 * zone is then the one shown) with a link to the settings and Dismiss.
 */
/** Where the time zone banner's Dismiss is kept: the account's and the browser's zones it was given for. */
const BANNER_DISMISSED_KEY = 'vpp.timezoneBanner.dismissed';

function TimezoneBanner() {
  const { data: account } = useAccount();
  const save = useSaveTimezone();
  const { timezoneMismatch } = useSession();
  const browser = browserTimeZone();
  // Dismiss holds across reloads for this pair of zones (the account's and the browser's); another pair shows the banner again.
  const pair = `${account?.timezone}|${browser}`;
  const [dismissedPair, setDismissedPair] = useState(() => localStorage.getItem(BANNER_DISMISSED_KEY));
  const dismissed = dismissedPair === pair;
  const dismiss = () => {
    localStorage.setItem(BANNER_DISMISSED_KEY, pair);
    setDismissedPair(pair);
  };

  // One try per page load: a save the server refuses must not be posted again at every render.
  const saveTried = useRef(false);

  useEffect(() => {
    if (!account) return;
    if (account.timezone === null) {
      if (!saveTried.current) {
        saveTried.current = true;
        save.mutate(browser);
      }
      return;
    }
    const mismatch = account.timezone !== browser;
    if (mismatch !== session.get().timezoneMismatch) session.set({ timezoneMismatch: mismatch });
  }, [account, browser, save]);

  if (!timezoneMismatch || dismissed) return null;
  return (
    <Alert color="yellow" mb="md" withCloseButton={false}>
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm">
          {MESSAGES.timezoneMismatch}.{' '}
          <Anchor component={Link} to="/user/settings" size="sm">
            Change your timezone in User Settings
          </Anchor>
        </Text>
        <Anchor component="button" size="sm" onClick={dismiss}>
          Dismiss
        </Anchor>
      </Group>
    </Alert>
  );
}
