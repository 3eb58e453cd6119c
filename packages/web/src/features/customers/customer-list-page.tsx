import { Alert, Anchor, Badge, Group, MultiSelect, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconAlertTriangle, IconSearch } from '@tabler/icons-react';
import { CUSTOMER_MESSAGES } from '@vpp/shared/customers/messages';
import { networkOfNmi, outsideNem } from '@vpp/shared/customers/networks';
import { CUSTOMER_VIEW, PLAN_VIEW } from '@vpp/shared/customers/permissions';
import { CAPABILITIES, type Capability, type Customer, NO_CAPABILITIES } from '@vpp/shared/customers/schemas';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { type Column, DataTable, pagingSearch } from '../../components/data-table.tsx';
import { PageLayout } from '../../components/page-layout.tsx';
import { useAccount } from '../../lib/account.ts';
import { usePermission } from '../../lib/permission-gate.tsx';
import { param, useSearchState } from '../../lib/search-state.ts';
import { usePlans } from '../plans/index.ts';
import { useCustomers } from './api.ts';
import { capabilityLabel, customerPath, installAddress } from './customer-format.ts';

const CAPABILITY_CHOICES = [...CAPABILITIES.map((c) => ({ value: c, label: capabilityLabel(c) })), { value: NO_CAPABILITIES, label: 'No capabilities' }];

/** A home without a plan: '–', or for a home in WA or NT, that it is outside the NEM and (on hover) why (issue 33 item 8). */
function OutsideNem({ c }: { c: Customer }) {
  const network = networkOfNmi(c.nmi, c.state);
  const why = network ? outsideNem(network) : null;
  if (!why) return '–';
  return (
    <Text size="xs" c="dimmed" title={why}>
      {CUSTOMER_MESSAGES.outsideNem}
    </Text>
  );
}

/** The list's query string: search (NMI or address), tariff (a plan uid), capabilities (comma-separated), paging. */
export const customerListSearch = pagingSearch.extend({
  search: param.text(),
  tariff: z
    .string()
    .optional()
    .transform((v) => (v && /^\d+$/.test(v) ? Number(v) : null)),
  capabilities: z
    .string()
    .optional()
    .transform((v) => (v ?? '').split(',').filter((c) => (CAPABILITY_CHOICES as { value: string }[]).some((x) => x.value === c))),
});

/** NONE stands alone: choosing it clears the others, choosing another clears it. */
export function nextCapabilities(previous: string[], chosen: string[]): string[] {
  const added = chosen.filter((c) => !previous.includes(c));
  if (added.includes(NO_CAPABILITIES)) return [NO_CAPABILITIES];
  return chosen.filter((c) => c !== NO_CAPABILITIES);
}

function CapabilityBadges({ capabilities }: { capabilities: Capability[] }) {
  if (!capabilities.length)
    return (
      <Badge color="orange" variant="light">
        None
      </Badge>
    );
  return (
    <Group gap={4}>
      {capabilities.map((c) => (
        <Badge key={c} variant="light">
          {capabilityLabel(c)}
        </Badge>
      ))}
    </Group>
  );
}

/** The Information column (NETWORK organisations): the home's distribution network and connection. */
function Information({ info }: { info: NonNullable<Customer['information']> }) {
  return (
    <Stack gap={0}>
      <Text size="sm">{info.network?.name ?? 'Unknown network'}</Text>
      <Text size="xs" c="dimmed">
        {`${info.region} · ${info.phases === 1 ? '1 phase' : `${info.phases} phases`} · ${info.inverterKw} kW inverter · ${info.solarKw} kW solar`}
      </Text>
    </Stack>
  );
}

/**
 * The columns by organisation type (spec 3 §2.8): Retail Plan for retailers, Information for
 * networks (never for installers); the server says which apply and fills only those.
 */
export function customerColumns(show: { retailPlan: boolean; information: boolean }): Column<Customer>[] {
  return [
    { key: 'nmi', header: 'NMI', render: (c) => c.nmi },
    { key: 'address', header: 'Install Address', render: (c) => installAddress(c) },
    ...(show.retailPlan
      ? [
          {
            key: 'plan',
            header: 'Retail Plan',
            render: (c: Customer) =>
              c.currentTariff ? (
                <Stack gap={0}>
                  <Text size="sm">{c.currentTariff.name}</Text>
                  <Text size="xs" c="dimmed">
                    {c.currentTariff.planCode}
                  </Text>
                </Stack>
              ) : (
                <OutsideNem c={c} />
              ),
          },
        ]
      : []),
    { key: 'capabilities', header: 'Capabilities', render: (c) => <CapabilityBadges capabilities={c.capabilities} /> },
    ...(show.information
      ? [{ key: 'information', header: 'Information', render: (c: Customer) => (c.information ? <Information info={c.information} /> : '–') }]
      : []),
  ];
}

/** Customer list (/customers/manage, spec 3 §2.8): searched, filtered and paged from the URL; a banner for customers without capabilities. */
export function CustomerListPage() {
  const [q, setQuery] = useSearchState(customerListSearch);
  const navigate = useNavigate();
  const account = useAccount().data;
  const retailer = account?.suborg_type === 'RETAILER';
  const seesPlans = usePermission(PLAN_VIEW);
  const [search, setSearch] = useState(q.search);
  const applySearch = useDebouncedCallback((value: string) => setQuery({ search: value.trim(), offset: 0 }, { replace: true }), 500);
  const customers = useCustomers({
    search: q.search || undefined,
    tariff: retailer && q.tariff ? q.tariff : undefined,
    capabilities: q.capabilities.length ? q.capabilities.join(',') : undefined,
    limit: q.limit,
    offset: q.offset,
  });
  // The Tariff filter's choices: the retailer's plans.
  const plans = usePlans({ limit: 200, offset: 0, sort: 'name', order: 'asc' }, retailer && seesPlans);
  const data = customers.data;
  const columns = customerColumns(data?.columns ?? { retailPlan: retailer, information: account?.suborg_type === 'NETWORK' });

  return (
    <PageLayout
      title="Customers"
      permission={CUSTOMER_VIEW}
      breadcrumb={[{ label: 'Customers' }, { label: 'Manage' }]}
      search={
        <Group gap="sm" align="flex-end" wrap="wrap">
          <TextInput
            label="Search"
            placeholder="NMI or address"
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(e) => {
              setSearch(e.currentTarget.value);
              applySearch(e.currentTarget.value);
            }}
            w={260}
          />
          {retailer && seesPlans && (
            <Select
              label="Tariff"
              placeholder="All tariffs"
              clearable
              searchable
              data={(plans.data?.plans ?? []).map((p) => ({ value: String(p.uid), label: `${p.name} (${p.planCode})` }))}
              value={q.tariff ? String(q.tariff) : null}
              onChange={(v) => setQuery({ tariff: v ? Number(v) : null, offset: 0 })}
              w={260}
              comboboxProps={{ withinPortal: true }}
            />
          )}
          <MultiSelect
            label="Capabilities"
            placeholder={q.capabilities.length ? undefined : 'Any capabilities'}
            clearable
            data={CAPABILITY_CHOICES}
            value={q.capabilities}
            onChange={(v) => setQuery({ capabilities: nextCapabilities(q.capabilities, v), offset: 0 })}
            miw={260}
            maw={520}
            comboboxProps={{ withinPortal: true }}
          />
        </Group>
      }
    >
      {!!data?.withoutCapabilities && (
        <Alert color="yellow" icon={<IconAlertTriangle size={18} />} role="alert" aria-label="Customers without capabilities">
          <Group gap="xs">
            <Text size="sm">{CUSTOMER_MESSAGES.noCapabilitiesBanner(data.withoutCapabilities)}</Text>
            {!(q.capabilities.length === 1 && q.capabilities[0] === NO_CAPABILITIES) && (
              <Anchor component="button" size="sm" onClick={() => setQuery({ capabilities: [NO_CAPABILITIES], offset: 0 })}>
                Show them
              </Anchor>
            )}
          </Group>
        </Alert>
      )}
      <DataTable
        label="Customers"
        columns={columns}
        rows={data?.customers}
        rowKey={(c) => c.nmi}
        total={data?.total ?? 0}
        limit={q.limit}
        offset={q.offset}
        onPage={(limit, offset) => setQuery({ limit, offset })}
        onRowClick={(c) => navigate(customerPath(c.nmi))}
        empty={CUSTOMER_MESSAGES.empty}
        loading={customers.isLoading}
      />
    </PageLayout>
  );
}
