import { Title } from '@mantine/core';
import { formatDateTime } from '@vpp/shared/format';
import { SUPPORT_MESSAGES } from '@vpp/shared/support/messages';
import { SUPPORT_CATEGORY_LABELS, type SupportRequest } from '@vpp/shared/support/schemas';
import { type Column, DataTable, usePaging } from '../../../components/data-table.tsx';
import { useTimeZone } from '../../../lib/account.ts';
import { useSupportRequests } from '../api.ts';

/** The user's past requests, newest first: when (in the account's time zone), reference, subject, category. */
export function SupportRequestsTable() {
  const { limit, offset, setPage } = usePaging();
  const zone = useTimeZone();
  const requests = useSupportRequests(limit, offset);
  const columns: Column<SupportRequest>[] = [
    { key: 'date', header: 'Date', render: (r) => formatDateTime(r.createdAt, zone), width: 160 },
    { key: 'reference', header: 'Reference', render: (r) => r.reference, width: 140 },
    { key: 'subject', header: 'Subject', render: (r) => r.subject },
    { key: 'category', header: 'Category', render: (r) => SUPPORT_CATEGORY_LABELS[r.category], width: 180 },
  ];
  return (
    <>
      <Title order={2} size="h4">
        Your requests
      </Title>
      <DataTable
        label="Your support requests"
        columns={columns}
        rows={requests.data?.requests}
        rowKey={(r) => r.id}
        total={requests.data?.total ?? 0}
        limit={limit}
        offset={offset}
        onPage={setPage}
        empty={SUPPORT_MESSAGES.noRequests}
        loading={requests.isLoading}
      />
    </>
  );
}
