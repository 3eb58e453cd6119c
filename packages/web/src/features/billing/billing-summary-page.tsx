import { Button, Group, SegmentedControl, Stack, Title } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { BILLING_MESSAGES } from '@vpp/shared/billing/messages';
import { GRIDCREDITS_VIEW } from '@vpp/shared/billing/permissions';
import { BILLING_INTERVALS, type BillingInterval, type BillingMonth } from '@vpp/shared/billing/schemas';
import { epochToLocalDate } from '@vpp/shared/time';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import { type Column, DataTable, pagingSearch } from '../../components/data-table.tsx';
import { PageLayout } from '../../components/page-layout.tsx';
import { useTimeZone } from '../../lib/account.ts';
import { param, useSearchState } from '../../lib/search-state.ts';
import { useBillingCustomers, useBillingMonthly } from './api.ts';
import { billingSearchPath, formatAud, formatDay, formatMonth } from './billing-format.ts';

const INTERVAL_LABELS = { day: 'Day', week: 'Week', month: 'Month' } as const;

/** The page's query string: the months' page, and the interval and page of the customer counts. */
const summarySearch = pagingSearch.extend({
  interval: param.oneOf(BILLING_INTERVALS, 'month'),
  customersLimit: pagingSearch.shape.limit,
  customersOffset: z
    .string()
    .optional()
    .transform((v) => Math.max(0, Math.floor(Number(v) || 0))),
});

const MONTH_COLUMNS: Column<BillingMonth>[] = [
  { key: 'date', header: 'Month', render: (m) => formatMonth(m.date) },
  { key: 'value', header: 'Value (AUD)', render: (m) => formatAud(m.value), align: 'right' },
  { key: 'count', header: 'Line Items', render: (m) => m.count.toLocaleString('en-AU'), align: 'right' },
  { key: 'eventCount', header: 'Events', render: (m) => m.eventCount.toLocaleString('en-AU'), align: 'right' },
  { key: 'customerCount', header: 'Customers', render: (m) => m.customerCount.toLocaleString('en-AU'), align: 'right' },
];

/**
 * The grid-credit monthly summary (/gridcredits/billing, spec 3 §2.10): each month's credits, line
 * items, events and customers, latest first (a month opens its transactions); the customers credited
 * per day, week or month; and Search Transactions.
 */
export function BillingSummaryPage() {
  const [q, setQuery] = useSearchState(summarySearch);
  const navigate = useNavigate();
  const today = epochToLocalDate(Date.now() / 1000, useTimeZone());
  const monthly = useBillingMonthly();
  const customers = useBillingCustomers(q.interval);
  const months = monthly.data;
  // Latest first, as the months are.
  const counts = customers.data && [...customers.data].sort((a, b) => b.date.localeCompare(a.date));
  const countRows = counts?.slice(q.customersOffset, q.customersOffset + q.customersLimit);

  return (
    <PageLayout
      title="GridCredits Billing"
      permission={GRIDCREDITS_VIEW}
      breadcrumb={[{ label: 'GridCredits' }, { label: 'Billing' }]}
      actions={
        <Button component={Link} to={billingSearchPath()} leftSection={<IconSearch size={16} />}>
          Search Transactions
        </Button>
      }
    >
      <DataTable
        label="Monthly summary"
        columns={MONTH_COLUMNS}
        rows={months?.slice(q.offset, q.offset + q.limit)}
        rowKey={(m) => m.date}
        total={months?.length ?? 0}
        limit={q.limit}
        offset={q.offset}
        onPage={(limit, offset, replace) => setQuery({ limit, offset }, { replace })}
        // This month's search ends today: no date after today is searched.
        onRowClick={(m) => navigate(billingSearchPath({ start: m.start, end: m.end < today ? m.end : today }))}
        empty={BILLING_MESSAGES.noTransactions}
        loading={monthly.isLoading}
      />
      <Stack gap="sm" mt="md">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4">
            Customers credited
          </Title>
          <SegmentedControl
            aria-label="Interval"
            value={q.interval}
            onChange={(v) => setQuery({ interval: v as BillingInterval, customersOffset: 0 })}
            data={BILLING_INTERVALS.map((i) => ({ value: i, label: INTERVAL_LABELS[i] }))}
          />
        </Group>
        <DataTable
          label="Customers credited"
          columns={[
            { key: 'date', header: INTERVAL_LABELS[q.interval], render: (c) => (q.interval === 'month' ? formatMonth(c.date) : formatDay(c.date)) },
            { key: 'customerCount', header: 'Customers', render: (c) => c.customerCount.toLocaleString('en-AU') },
          ]}
          rows={countRows}
          rowKey={(c) => c.date}
          total={counts?.length ?? 0}
          limit={q.customersLimit}
          offset={q.customersOffset}
          onPage={(limit, offset, replace) => setQuery({ customersLimit: limit, customersOffset: offset }, { replace })}
          empty={BILLING_MESSAGES.noTransactions}
          loading={customers.isLoading}
          minWidth={280}
        />
      </Stack>
    </PageLayout>
  );
}
