import { Button } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { DEFAULT_PAGE_SIZE } from '@vpp/shared/constants';
import { Link } from 'react-router';
import { useNotifications } from './api.ts';

/** The header bell: 'N Unread', linking to the notification list. */
export function NotificationBell() {
  const { data } = useNotifications({ limit: DEFAULT_PAGE_SIZE, offset: 0 });
  const unread = data?.unread ?? 0;
  return (
    <Button
      component={Link}
      to="/user/notifications"
      variant={unread ? 'light' : 'subtle'}
      color={unread ? 'orange' : 'gray'}
      size="compact-sm"
      leftSection={<IconBell size={16} />}
      aria-label={`Notifications: ${unread} Unread`}
    >
      {unread} Unread
    </Button>
  );
}
