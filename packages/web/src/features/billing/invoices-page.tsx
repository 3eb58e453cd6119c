import { Badge, Button, Stack, Switch, Text } from '@mantine/core';
import { IconFileTypePdf } from '@tabler/icons-react';
import { BILLING_MESSAGES } from '@vpp/shared/billing/messages';
import { INVOICES_MARK_PAID, INVOICES_VIEW } from '@vpp/shared/billing/permissions';
import type { Invoice } from '@vpp/shared/billing/schemas';
import { useState } from 'react';
import { type Column, DataTable, usePaging } from '../../components/data-table.tsx';
import { PageLayout } from '../../components/page-layout.tsx';
import { usePermission } from '../../lib/permission-gate.tsx';
import { openDownload, useInvoices, useSetInvoicePaid } from './api.ts';
import { formatAud, formatDay } from './billing-format.ts';

/** Downloads the invoice's PDF through a single-use link. */
function PdfButton({ invoice }: { invoice: Invoice }) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      variant="subtle"
      size="compact-sm"
      leftSection={<IconFileTypePdf size={16} />}
      loading={busy}
      // The name holds the visible text (WCAG 2.5.3) and says which invoice.
      aria-label={`PDF of ${invoice.number}`}
      onClick={async () => {
        setBusy(true);
        await openDownload(invoice.downloadURL).finally(() => setBusy(false));
      }}
    >
      PDF
    </Button>
  );
}

/** Paid or Unpaid; a switch for those who may change it. */
function PaidCell({ invoice, editable }: { invoice: Invoice; editable: boolean }) {
  const setPaid = useSetInvoicePaid();
  if (!editable)
    return (
      <Badge color={invoice.paid ? 'green' : 'gray'} variant="light">
        {invoice.paid ? 'Paid' : 'Unpaid'}
      </Badge>
    );
  return (
    <Switch
      checked={invoice.paid}
      // The column says Paid; the switch's name says which invoice.
      aria-label={`Paid ${invoice.number}`}
      disabled={setPaid.isPending}
      onChange={(e) => setPaid.mutate({ id: invoice.id, paid: e.currentTarget.checked })}
    />
  );
}

/** The invoices page (/my-reposit/billing, spec 3 §2.10): date (with the invoice number), total in AUD, paid, and the PDF. */
export function InvoicesPage() {
  const { limit, offset, setPage } = usePaging();
  const invoices = useInvoices();
  // The platform's own billing administrators alone set an invoice paid: the server says whether the caller is one.
  const editable = usePermission(INVOICES_MARK_PAID) && invoices.data?.canMarkPaid === true;
  const columns: Column<Invoice>[] = [
    {
      key: 'date',
      header: 'Date',
      render: (i) => (
        <Stack gap={0}>
          <Text size="sm">{formatDay(i.date)}</Text>
          <Text size="xs" c="dimmed">
            {i.number}
          </Text>
        </Stack>
      ),
    },
    { key: 'total', header: 'Total (AUD)', render: (i) => formatAud(i.total) },
    { key: 'paid', header: 'Paid', render: (i) => <PaidCell invoice={i} editable={editable} /> },
    { key: 'download', header: 'Download', render: (i) => <PdfButton invoice={i} /> },
  ];
  return (
    <PageLayout title="Invoices" permission={INVOICES_VIEW} breadcrumb={[{ label: 'My Reposit' }, { label: 'Invoices' }]}>
      <DataTable
        label="Invoices"
        columns={columns}
        rows={invoices.data?.invoices.slice(offset, offset + limit)}
        rowKey={(i) => i.id}
        total={invoices.data?.invoices.length ?? 0}
        limit={limit}
        offset={offset}
        onPage={setPage}
        empty={BILLING_MESSAGES.noInvoices}
        loading={invoices.isLoading}
        // Four narrow columns fit a phone.
        minWidth={340}
      />
    </PageLayout>
  );
}
