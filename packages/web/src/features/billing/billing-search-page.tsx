import { Alert, Button, Group, Text } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { IconDownload, IconSearch } from '@tabler/icons-react';
import { BILLING_MESSAGES } from '@vpp/shared/billing/messages';
import { GRIDCREDITS_VIEW } from '@vpp/shared/billing/permissions';
import { type BillingItem, billingRangeError } from '@vpp/shared/billing/schemas';
import { epochToLocalDate } from '@vpp/shared/time';
import { useState } from 'react';
import { type Column, DataTable, pagingSearch } from '../../components/data-table.tsx';
import { PageLayout } from '../../components/page-layout.tsx';
import { useTimeZone } from '../../lib/account.ts';
import { param, useSearchState } from '../../lib/search-state.ts';
import { openDownload, useBillingItems } from './api.ts';
import { BILLING_PATH, eventsCsvPath, formatAud, formatDay, formatKwh, formatRate, itemTypeLabel, monthStart, summaryCsvPath } from './billing-format.ts';

/** The search in the query string: start and end (YYYY-MM-DD, inclusive) and the page. */
const searchSearch = pagingSearch.extend({ start: param.text(), end: param.text() });

export const ITEM_COLUMNS: Column<BillingItem>[] = [
  { key: 'nmi', header: 'NMI', render: (i) => i.nmi },
  { key: 'day', header: 'Day', render: (i) => formatDay(i.day) },
  { key: 'type', header: 'Type', render: (i) => itemTypeLabel(i.type) },
  { key: 'event', header: 'Event', render: (i) => i.event },
  { key: 'amount', header: 'Amount (kWh)', render: (i) => formatKwh(i.amount), align: 'right' },
  { key: 'rate', header: 'Rate ($/kWh)', render: (i) => formatRate(i.rate), align: 'right' },
  { key: 'cost', header: 'Cost (AUD)', render: (i) => formatAud(i.cost), align: 'right' },
];

/** A download button that says it is busy while its link is being made. */
function DownloadButton(props: { label: string; path: string }) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      variant="default"
      leftSection={<IconDownload size={16} />}
      loading={busy}
      onClick={async () => {
        setBusy(true);
        await openDownload(props.path).finally(() => setBusy(false));
      }}
    >
      {props.label}
    </Button>
  );
}

/**
 * The grid-credit transaction search (/gridcredits/billing/search?start&end, spec 3 §2.10): From and
 * To (dd/MM/yyyy, neither after today in the user's time zone), Search, the line items, and the Events
 * CSV and Summary CSV when the range has events.
 */
export function BillingSearchPage() {
  const [q, setQuery] = useSearchState(searchSearch);
  const zone = useTimeZone();
  const today = epochToLocalDate(Date.now() / 1000, zone);
  // The pickers start at the search in the URL, or this month so far.
  const [from, setFrom] = useState(q.start || monthStart(today));
  const [to, setTo] = useState(q.end || today);
  const searched = q.start !== '' || q.end !== '';
  const refused = searched ? billingRangeError(q.start, q.end, today) : null;
  const pickerError = billingRangeError(from, to, today);
  const items = useBillingItems({ start: q.start, end: q.end, limit: q.limit, offset: q.offset }, searched && !refused);
  const data = items.data;

  return (
    <PageLayout
      title="Search Transactions"
      permission={GRIDCREDITS_VIEW}
      breadcrumb={[{ label: 'GridCredits' }, { label: 'Billing', to: BILLING_PATH }, { label: 'Search Transactions' }]}
      search={
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (!pickerError) setQuery({ start: from, end: to, offset: 0 });
          }}
        >
          <Group gap="sm" align="flex-end" wrap="wrap">
            <DatePickerInput
              label="From"
              valueFormat="DD/MM/YYYY"
              placeholder="dd/mm/yyyy"
              value={from || null}
              maxDate={to && to < today ? to : today}
              onChange={(v) => setFrom(v ? String(v).slice(0, 10) : '')}
              w={160}
              popoverProps={{ withinPortal: true }}
            />
            <DatePickerInput
              label="To"
              valueFormat="DD/MM/YYYY"
              placeholder="dd/mm/yyyy"
              value={to || null}
              minDate={from || undefined}
              maxDate={today}
              onChange={(v) => setTo(v ? String(v).slice(0, 10) : '')}
              w={160}
              popoverProps={{ withinPortal: true }}
            />
            <Button type="submit" leftSection={<IconSearch size={16} />} disabled={!!pickerError}>
              Search
            </Button>
          </Group>
          {pickerError && (
            <Text c="red" size="sm" mt={4}>
              {pickerError}
            </Text>
          )}
        </form>
      }
    >
      {refused && (
        <Alert color="red" role="alert">
          {refused}
        </Alert>
      )}
      {searched && !refused && (
        <>
          {!!data?.eventCount && (
            <Group justify="space-between" wrap="wrap">
              <Text size="sm">
                {`${data.eventCount.toLocaleString('en-AU')} ${data.eventCount === 1 ? 'event' : 'events'} · ${data.total.toLocaleString('en-AU')} ${data.total === 1 ? 'line item' : 'line items'} · ${formatAud(data.totalCost)}`}
              </Text>
              <Group gap="sm">
                <DownloadButton label="Events CSV" path={eventsCsvPath(q.start, q.end)} />
                <DownloadButton label="Summary CSV" path={summaryCsvPath(q.start, q.end, today)} />
              </Group>
            </Group>
          )}
          <DataTable
            label="GridCredits transactions"
            columns={ITEM_COLUMNS}
            rows={data?.items}
            rowKey={(i) => i.id}
            total={data?.total ?? 0}
            limit={q.limit}
            offset={q.offset}
            onPage={(limit, offset, replace) => setQuery({ limit, offset }, { replace })}
            empty={BILLING_MESSAGES.noTransactions}
            loading={items.isLoading}
          />
        </>
      )}
    </PageLayout>
  );
}
