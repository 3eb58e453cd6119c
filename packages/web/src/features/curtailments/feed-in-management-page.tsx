import { Button, Group, Tabs } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { CURTAILMENT_MESSAGES as M } from '@vpp/shared/curtailments/messages';
import { CURTAILMENT_EDIT, CURTAILMENT_VIEW } from '@vpp/shared/curtailments/permissions';
import { useState } from 'react';
import { pagingSearch } from '../../components/data-table.tsx';
import { PageLayout } from '../../components/page-layout.tsx';
import { TimesInZone } from '../../components/times-in-zone.tsx';
import { useTimeZone } from '../../lib/account.ts';
import { usePermission } from '../../lib/permission-gate.tsx';
import { param, useSearchState } from '../../lib/search-state.ts';
import { useCurtailments, useSetpoints } from './api.ts';
import { CurtailmentTable, SetpointTable } from './curtailment-tables.tsx';
import { NewCurtailmentModal } from './new-curtailment-modal.tsx';
import { NewSetpointModal } from './new-setpoint-modal.tsx';

const TABS = ['CURTAILMENT_LIST', 'SETPOINT_LIST'] as const;
const feedInSearch = pagingSearch.extend({ tab: param.oneOf(TABS, 'CURTAILMENT_LIST') });

/**
 * Feed-In Management (/virtual-power-plants/feed-in-management?tab&limit&offset, spec 3 §2.7): the
 * Curtailments tab (default) and the Default Setpoints tab, each paged in the URL; New Curtailment
 * and New Default Setpoint for those who may edit.
 */
export function FeedInManagementPage() {
  const [{ tab, limit, offset }, set] = useSearchState(feedInSearch);
  const zone = useTimeZone();
  const canView = usePermission(CURTAILMENT_VIEW);
  const canEdit = usePermission(CURTAILMENT_EDIT);
  const [creating, setCreating] = useState<'curtailment' | 'setpoint' | null>(null);
  const curtailments = useCurtailments({ limit, offset }, canView && tab === 'CURTAILMENT_LIST');
  const setpoints = useSetpoints({ limit, offset }, canView && tab === 'SETPOINT_LIST');
  const onPage = (l: number, o: number, replace?: boolean) => set({ limit: l, offset: o }, { replace });
  const shown = tab === 'CURTAILMENT_LIST' ? curtailments : setpoints;
  const nowS = (shown.dataUpdatedAt || Date.now()) / 1000;

  return (
    <PageLayout
      title={M.title}
      permission={CURTAILMENT_VIEW}
      breadcrumb={[{ label: 'Virtual Power Plants' }, { label: M.title }]}
      actions={
        canEdit && (
          <Group gap="xs">
            <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating('curtailment')}>
              {M.newCurtailment}
            </Button>
            <Button variant="light" leftSection={<IconPlus size={16} />} onClick={() => setCreating('setpoint')}>
              {M.newSetpoint}
            </Button>
          </Group>
        )
      }
    >
      <Tabs value={tab} onChange={(v) => set({ tab: (v ?? 'CURTAILMENT_LIST') as (typeof TABS)[number], offset: 0, limit })} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="CURTAILMENT_LIST">{M.curtailmentsTab}</Tabs.Tab>
          <Tabs.Tab value="SETPOINT_LIST">{M.setpointsTab}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="CURTAILMENT_LIST" pt="md">
          <CurtailmentTable
            zone={zone}
            nowS={nowS}
            page={{
              rows: curtailments.data?.curtailments,
              total: curtailments.data?.total ?? 0,
              loading: curtailments.isLoading,
              limit,
              offset,
              onPage,
            }}
          />
        </Tabs.Panel>
        <Tabs.Panel value="SETPOINT_LIST" pt="md">
          <SetpointTable
            zone={zone}
            nowS={nowS}
            page={{ rows: setpoints.data?.setpoints, total: setpoints.data?.total ?? 0, loading: setpoints.isLoading, limit, offset, onPage }}
          />
        </Tabs.Panel>
      </Tabs>
      <TimesInZone zone={zone} />
      {canEdit && (
        <>
          <NewCurtailmentModal opened={creating === 'curtailment'} onClose={() => setCreating(null)} />
          <NewSetpointModal opened={creating === 'setpoint'} onClose={() => setCreating(null)} />
        </>
      )}
    </PageLayout>
  );
}
