import { Anchor, Button, Card, Stack, Text, Typography } from '@mantine/core';
import { notificationDateLabel } from '@vpp/shared/notifications/day-label';
import { NOTIFICATION_AUTO_READ_MS } from '@vpp/shared/notifications/schemas';
import { useEffect, useRef } from 'react';
import Markdown from 'react-markdown';
import { Link, useParams } from 'react-router';
import { LoadingSkeleton } from '../../components/loading-skeleton.tsx';
import { NotFound } from '../../components/not-found.tsx';
import { PageLayout } from '../../components/page-layout.tsx';
import { useTimeZone } from '../../lib/account.ts';
import { NOTIFICATION_NOT_FOUND, notificationMissing, useMarkRead, useMarkUnread, useNotification } from './api.ts';

/**
 * /user/notifications/{id}: the summary and the markdown body (raw HTML in it is not rendered).
 * An unread notification is marked read after about a second; a read one offers 'Mark as Unread'.
 */
export function NotificationDetailPage() {
  const id = Number(useParams().id);
  const notification = useNotification(id);
  const markRead = useMarkRead();
  const markUnread = useMarkUnread();
  const timeZone = useTimeZone();
  const autoRead = useRef<number | null>(null);
  const n = notification.data;

  // Once per notification opened: marking it unread afterwards must not mark it read again.
  useEffect(() => {
    if (!n || n.read || autoRead.current === n.id) return;
    const t = setTimeout(() => {
      autoRead.current = n.id;
      markRead.mutate(n.id);
    }, NOTIFICATION_AUTO_READ_MS);
    return () => clearTimeout(t);
  }, [n, markRead.mutate]);

  return (
    <PageLayout
      title={n?.summary ?? 'Notification'}
      breadcrumb={[{ label: 'Notifications', to: '/user/notifications' }, { label: 'Notification' }]}
      actions={
        n?.read && (
          <Button variant="light" onClick={() => markUnread.mutate(n.id)} loading={markUnread.isPending}>
            Mark as Unread
          </Button>
        )
      }
    >
      {notificationMissing(id, notification) && <NotFound text={NOTIFICATION_NOT_FOUND} listPath="/user/notifications" backLabel="Back to Notifications" />}
      {notification.isPending && !notificationMissing(id, notification) && <LoadingSkeleton variant="lines" />}
      {n && (
        <Card withBorder padding="lg" maw={860}>
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              {notificationDateLabel(n.createdAt, timeZone)}
              {n.read ? '' : ' · Unread'}
            </Text>
            <Typography>
              <Markdown>{n.body}</Markdown>
            </Typography>
            <Anchor component={Link} to="/user/notifications" size="sm">
              Back to Notifications
            </Anchor>
          </Stack>
        </Card>
      )}
    </PageLayout>
  );
}
