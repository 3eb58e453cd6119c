import { Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { SORT_ORDERS } from '@vpp/shared/api/inputs';
import { PLAN_EDIT, PLAN_VIEW } from '@vpp/shared/customers/permissions';
import { PLAN_SORTS, PLAN_TYPE_LABELS, PLAN_TYPES } from '@vpp/shared/plans/constants';
import { PLAN_MESSAGES } from '@vpp/shared/plans/messages';
import type { PlanSummary } from '@vpp/shared/plans/schemas';
import { type ReactNode, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { type Column, DataTable, pagingSearch } from '../../components/data-table.tsx';
import { PageLayout } from '../../components/page-layout.tsx';
import { sortHeaders } from '../../components/sort-header.tsx';
import { usePermission } from '../../lib/permission-gate.tsx';
import { param, useSearchState } from '../../lib/search-state.ts';
import { useOperationalNetworks, usePlans } from './api.ts';
import { PLAN_NEW_PATH, PLANS_BREADCRUMB, planPath } from './plan-paths.ts';

/** The list's query string: filters network, plan type and name or code; sort and order (default name ascending); paging. */
export const planListSearch = pagingSearch.extend({
  network: param.text(),
  tariffType: param.oneOf(['', ...PLAN_TYPES], ''),
  search: param.text(),
  sort: param.oneOf(PLAN_SORTS, 'name'),
  order: param.oneOf(SORT_ORDERS, 'asc'),
});

/** The list's columns, each sorting (`header` makes their buttons): Name (with code), Network, Plan Type, Customers. */
function planColumns(header: (label: string, sort: (typeof PLAN_SORTS)[number]) => ReactNode): Column<PlanSummary>[] {
  return [
    {
      key: 'name',
      header: header('Name', 'name'),
      render: (p) => (
        <Stack gap={0}>
          <Text size="sm" fw={500}>
            {p.name}
          </Text>
          <Text size="xs" c="dimmed">
            {p.planCode}
          </Text>
        </Stack>
      ),
    },
    { key: 'network', header: header('Network', 'network'), render: (p) => p.operationalNetwork },
    { key: 'type', header: header('Plan Type', 'type'), render: (p) => PLAN_TYPE_LABELS[p.tariffType] },
    { key: 'customers', header: header('Customers', 'customers'), render: (p) => p.customersCount },
  ];
}

/** Plan list (/customers/plans, spec 3 §2.9): Name (with code), Network, Plan Type, Customers; filtered, sorted and paged from the URL. */
export function PlanListPage() {
  const [q, setQuery] = useSearchState(planListSearch);
  const navigate = useNavigate();
  const canEdit = usePermission(PLAN_EDIT);
  const networks = useOperationalNetworks();
  const [search, setSearch] = useState(q.search);
  const applySearch = useDebouncedCallback((value: string) => setQuery({ search: value.trim(), offset: 0 }, { replace: true }), 500);
  const plans = usePlans({
    network: q.network || undefined,
    tariffType: q.tariffType || undefined,
    search: q.search || undefined,
    sort: q.sort,
    order: q.order,
    limit: q.limit,
    offset: q.offset,
  });
  const columns = planColumns(sortHeaders(q.sort, q.order, (sort, order) => setQuery({ sort, order, offset: 0 })));

  return (
    <PageLayout
      title="Plans"
      permission={PLAN_VIEW}
      breadcrumb={[PLANS_BREADCRUMB, { label: 'Plans' }]}
      actions={
        canEdit && (
          <Button component={Link} to={PLAN_NEW_PATH} leftSection={<IconPlus size={16} />}>
            New Plan
          </Button>
        )
      }
      search={
        <Group gap="sm" align="flex-end" wrap="wrap">
          <TextInput
            label="Name or code"
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(e) => {
              setSearch(e.currentTarget.value);
              applySearch(e.currentTarget.value);
            }}
            w={240}
          />
          <Select
            label="Network"
            placeholder="All networks"
            clearable
            searchable
            data={(networks.data ?? []).map((n) => ({ value: n.uid, label: n.name }))}
            value={q.network || null}
            onChange={(v) => setQuery({ network: v ?? '', offset: 0 })}
            w={220}
            comboboxProps={{ withinPortal: true }}
          />
          <Select
            label="Plan Type"
            placeholder="All plan types"
            clearable
            data={PLAN_TYPES.map((t) => ({ value: t, label: PLAN_TYPE_LABELS[t] }))}
            value={q.tariffType || null}
            onChange={(v) => setQuery({ tariffType: (v ?? '') as typeof q.tariffType, offset: 0 })}
            w={220}
            comboboxProps={{ withinPortal: true }}
          />
        </Group>
      }
    >
      <DataTable
        label="Plans"
        columns={columns}
        rows={plans.data?.plans}
        rowKey={(p) => p.uid}
        total={plans.data?.total ?? 0}
        limit={q.limit}
        offset={q.offset}
        onPage={(limit, offset) => setQuery({ limit, offset })}
        onRowClick={(p) => navigate(planPath(p.planCode))}
        empty={PLAN_MESSAGES.empty}
        loading={plans.isLoading}
      />
    </PageLayout>
  );
}
