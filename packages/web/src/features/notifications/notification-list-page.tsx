import { Anchor, Button, Stack, Text } from '@mantine/core';
import { notificationDateLabel } from '@vpp/shared/notifications/day-label';
import { NOTIFICATION_MESSAGES, type Notification } from '@vpp/shared/notifications/schemas';
import { Link } from 'react-router';
import { type Column, DataTable, usePaging } from '../../components/data-table.tsx';
import { PageLayout } from '../../components/page-layout.tsx';
import { useTimeZone } from '../../lib/account.ts';
import { useMarkAllRead, useMarkRead, useNotifications } from './api.ts';

/** /user/notifications: newest first, unread in bold, a page at a time (limit and offset in the URL). */
export function NotificationListPage() {
  const { limit, offset, setPage } = usePaging();
  const list = useNotifications({ limit, offset });
  const markRead = useMarkRead();
  const markAll = useMarkAllRead();
  const timeZone = useTimeZone();
  const items = list.data?.notifications;
  const anyUnread = items?.some((n) => !n.read) ?? false;
  const columns: Column<Notification>[] = [
    {
      key: 'notification',
      header: 'Notification',
      render: (n) => (
        <Stack gap={2}>
          <Anchor component={Link} to={`/user/notifications/${n.id}`} fw={n.read ? 400 : 700}>
            {n.summary}
          </Anchor>
          <Text size="xs" c="dimmed">
            {notificationDateLabel(n.createdAt, timeZone)}
          </Text>
        </Stack>
      ),
    },
  ];
  if (anyUnread) {
    columns.push({
      key: 'mark-read',
      header: 'Mark as read',
      width: 160,
      render: (n) =>
        !n.read && (
          <Button size="xs" variant="subtle" onClick={() => markRead.mutate(n.id)} aria-label={`Mark as read: ${n.summary}`}>
            Mark as read
          </Button>
        ),
    });
  }

  return (
    <PageLayout
      title="Notifications"
      actions={
        <Button variant="light" onClick={() => markAll.mutate()} loading={markAll.isPending} disabled={!list.data?.unread}>
          Mark all as Read
        </Button>
      }
    >
      <DataTable
        label="Notifications"
        columns={columns}
        rows={items}
        rowKey={(n) => n.id}
        total={list.data?.total ?? 0}
        limit={limit}
        offset={offset}
        onPage={setPage}
        empty={NOTIFICATION_MESSAGES.empty}
        loading={list.isLoading}
      />
    </PageLayout>
  );
}
