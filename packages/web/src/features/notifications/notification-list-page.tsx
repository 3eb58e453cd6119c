import { Anchor, Button, Group, Pagination, Select, Stack, Table, Text } from '@mantine/core';
import { DEFAULT_PAGE_SIZE, NOTIFICATION_MESSAGES, notificationDateLabel, PAGE_SIZES } from '@vpp/shared';
import { Link, useSearchParams } from 'react-router';
import { PageLayout } from '../../components/page-layout.tsx';
import { useAccount } from '../account/api.ts';
import { useMarkAllRead, useMarkRead, useNotifications } from './api.ts';

/** The account's zone for dates, or the browser's while the account loads. */
export function useTimeZone(): string {
  return useAccount().data?.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** /user/notifications: newest first, unread in bold, a page at a time (limit and offset in the URL). */
export function NotificationListPage() {
  const [params, setParams] = useSearchParams();
  const limitParam = Number(params.get('limit'));
  const limit = (PAGE_SIZES as readonly number[]).includes(limitParam) ? limitParam : DEFAULT_PAGE_SIZE;
  const offset = Math.max(0, Math.floor(Number(params.get('offset')) || 0));
  const list = useNotifications({ limit, offset });
  const markRead = useMarkRead();
  const markAll = useMarkAllRead();
  const timeZone = useTimeZone();
  const items = list.data?.notifications ?? [];
  const anyUnread = items.some((n) => !n.read);
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / limit));

  return (
    <PageLayout
      title="Notifications"
      actions={
        <Button variant="light" onClick={() => markAll.mutate()} loading={markAll.isPending} disabled={!list.data?.unread}>
          Mark all as Read
        </Button>
      }
    >
      {list.data && items.length === 0 ? (
        <Text c="dimmed">{NOTIFICATION_MESSAGES.empty}</Text>
      ) : (
        <Table highlightOnHover withTableBorder aria-label="Notifications">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Notification</Table.Th>
              {anyUnread && <Table.Th w={160}>Mark as read</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((n) => (
              <Table.Tr key={n.id}>
                <Table.Td>
                  <Stack gap={2}>
                    <Anchor component={Link} to={`/user/notifications/${n.id}`} fw={n.read ? 400 : 700}>
                      {n.summary}
                    </Anchor>
                    <Text size="xs" c="dimmed">
                      {notificationDateLabel(n.createdAt, timeZone)}
                    </Text>
                  </Stack>
                </Table.Td>
                {anyUnread && (
                  <Table.Td>
                    {!n.read && (
                      <Button size="xs" variant="subtle" onClick={() => markRead.mutate(n.id)} aria-label={`Mark "${n.summary}" as read`}>
                        Mark as read
                      </Button>
                    )}
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {(list.data?.total ?? 0) > DEFAULT_PAGE_SIZE && (
        <Group justify="space-between">
          <Select
            aria-label="Rows per page"
            w={100}
            data={PAGE_SIZES.map(String)}
            value={String(limit)}
            allowDeselect={false}
            onChange={(v) => setParams({ limit: String(v), offset: '0' })}
          />
          <Pagination
            total={pages}
            value={Math.floor(offset / limit) + 1}
            onChange={(p) => setParams({ limit: String(limit), offset: String((p - 1) * limit) })}
            siblings={2}
          />
        </Group>
      )}
    </PageLayout>
  );
}
