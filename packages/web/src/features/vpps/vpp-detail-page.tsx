import { Button, Group, Menu, Stack, Tabs, Text } from '@mantine/core';
import { IconBolt, IconChevronDown, IconPencil, IconSunOff } from '@tabler/icons-react';
import { CURTAILMENT_EDIT, CURTAILMENT_VIEW } from '@vpp/shared/curtailments/permissions';
import { DISPATCH_EDIT, DISPATCH_VIEW } from '@vpp/shared/dispatches/permissions';
import { canSeeMarketData } from '@vpp/shared/market/rules';
import { VPP_MESSAGES } from '@vpp/shared/vpps/messages';
import { NODE_VIEW, VPP_EDIT, VPP_VIEW } from '@vpp/shared/vpps/permissions';
import { lazy, Suspense, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { DataTable, pagingSearch } from '../../components/data-table.tsx';
import { FleetSearchInput, useTypedSearch } from '../../components/fleet-search.tsx';
import { LoadingSkeleton } from '../../components/loading-skeleton.tsx';
import { NodeMap, useMapHeight } from '../../components/node-map.tsx';
import { NotFound } from '../../components/not-found.tsx';
import { PageLayout } from '../../components/page-layout.tsx';
import { useAccount } from '../../lib/account.ts';
import { usePermission } from '../../lib/permission-gate.tsx';
import { isNotFound } from '../../lib/request.ts';
import { param, useSearchState } from '../../lib/search-state.ts';
import { usePowerstation, usePowerstationMap, usePowerstationNodes, VPP_NOT_FOUND } from './api.ts';
import { DeleteVppButton } from './delete-vpp.tsx';
import { VppEvents } from './vpp-events.tsx';
import { NameplateSummary, VppRule } from './vpp-nameplate.tsx';
import { nodeColumns } from './vpp-node-columns.tsx';
import { VPP_LIST_PATH, vppEditPath } from './vpp-paths.ts';

const TABS = ['MAP', 'DEPLOYMENT_LIST', 'SETPOINT_LIST', 'TRADING'] as const;

// The other areas' parts load when first shown: the modals on their first opening, the setpoints with their tab.
const NewDispatchModal = lazy(() => import('../dispatches/index.ts').then((m) => ({ default: m.NewDispatchModal })));
const NewCurtailmentModal = lazy(() => import('../curtailments/index.ts').then((m) => ({ default: m.NewCurtailmentModal })));
const VppSetpointsTab = lazy(() => import('../curtailments/index.ts').then((m) => ({ default: m.VppSetpointsTab })));
const TradingPanel = lazy(() => import('../trading/index.ts').then((m) => ({ default: m.TradingPanel })));
const vppDetailSearch = pagingSearch.extend({ tab: param.oneOf(TABS, 'MAP'), f: param.text() });

/** The VPP's nodes, searched (f) and paged in the URL. */
function NodeList({ id, linkNodes }: { id: number; linkNodes: boolean }) {
  const [{ f, limit, offset }, set] = useSearchState(vppDetailSearch);
  const navigate = useNavigate();
  const [search, type] = useTypedSearch(f, (value) => set({ f: value, offset: 0 }, { replace: true }));
  const nodes = usePowerstationNodes(id, { f: f || undefined, limit, offset });
  return (
    <Stack gap="sm">
      <FleetSearchInput value={search} onChange={type} />
      <DataTable
        label="Nodes"
        columns={nodeColumns(linkNodes)}
        rows={nodes.data?.deployments}
        rowKey={(n) => n.id}
        total={nodes.data?.total ?? 0}
        limit={limit}
        offset={offset}
        onPage={(l, o, replace) => set({ limit: l, offset: o }, { replace })}
        onRowClick={linkNodes ? (n) => navigate(`/fleet-monitoring/nodes/${n.id}`) : undefined}
        empty={f ? VPP_MESSAGES.noNodesForFilter : VPP_MESSAGES.noNodes}
        loading={nodes.isLoading}
      />
    </Stack>
  );
}

function VppMap({ id, linkNodes }: { id: number; linkNodes: boolean }) {
  const map = usePowerstationMap(id, true);
  const navigate = useNavigate();
  const height = useMapHeight();
  if (map.isLoading) return <LoadingSkeleton variant="chart" height={500} label="Loading map" />;
  return (
    <Stack gap="xs">
      {map.data?.total === 0 && <Text c="dimmed">{VPP_MESSAGES.noNodes}</Text>}
      <NodeMap
        tiles={map.data}
        height={height}
        label="VPP map"
        listedBy="the List tab"
        onSelect={linkNodes ? (n) => navigate(`/fleet-monitoring/nodes/${n}`) : undefined}
      />
    </Stack>
  );
}

/**
 * The 'Add New' event menu (spec 2 §2, spec 3 §2.3): Dispatch with fleet.dispatches.edit and
 * Curtailment with fleet.curtailments.edit, each opening its modal on this VPP; with no item the
 * menu is not shown.
 */
function AddNewMenu({ id, fcas }: { id: number; fcas: boolean }) {
  // An FCAS VPP is registered for frequency services, not dispatched or curtailed (the server refuses it too).
  const canDispatch = usePermission(DISPATCH_EDIT) && !fcas;
  const canCurtail = usePermission(CURTAILMENT_EDIT) && !fcas;
  const [opened, setOpened] = useState<'dispatch' | 'curtailment' | null>(null);
  // A modal stays mounted once opened, so that it closes with its transition.
  const [used, setUsed] = useState({ dispatch: false, curtailment: false });
  const open = (which: 'dispatch' | 'curtailment') => {
    setUsed((u) => ({ ...u, [which]: true }));
    setOpened(which);
  };
  if (!canDispatch && !canCurtail) return null;
  return (
    <>
      <Menu position="bottom-end">
        <Menu.Target>
          <Button variant="light" rightSection={<IconChevronDown size={16} />}>
            Add New
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {canDispatch && (
            <Menu.Item leftSection={<IconBolt size={16} />} onClick={() => open('dispatch')}>
              Dispatch
            </Menu.Item>
          )}
          {canCurtail && (
            <Menu.Item leftSection={<IconSunOff size={16} />} onClick={() => open('curtailment')}>
              Curtailment
            </Menu.Item>
          )}
        </Menu.Dropdown>
      </Menu>
      <Suspense fallback={null}>
        {canDispatch && used.dispatch && <NewDispatchModal opened={opened === 'dispatch'} onClose={() => setOpened(null)} powerstationId={id} />}
        {canCurtail && used.curtailment && <NewCurtailmentModal opened={opened === 'curtailment'} onClose={() => setOpened(null)} powerstationId={id} />}
      </Suspense>
    </>
  );
}

/** VPP detail (/virtual-power-plants/manage/{id}?tab=MAP|DEPLOYMENT_LIST|SETPOINT_LIST&f&limit&offset): nameplate, events, map, node list and default setpoints. */
export function VppDetailPage() {
  const id = Number(useParams().id);
  const [{ tab, limit }, set] = useSearchState(vppDetailSearch);
  const vpp = usePowerstation(id);
  const canEdit = usePermission(VPP_EDIT);
  const linkNodes = usePermission(NODE_VIEW);
  const seesSetpoints = usePermission(CURTAILMENT_VIEW);
  // The Default Setpoints tab needs fleet.curtailments.any (spec 2 §2): without it a linked SETPOINT_LIST opens the map.
  // Automatic trading (issue 35) is for those who dispatch and see the market's prices, on a VPP that can be dispatched.
  const { data: account } = useAccount();
  const seesTrading = usePermission(DISPATCH_VIEW) && !!account && canSeeMarketData(account.suborg_type, account.permissions) && vpp.data?.type !== 'FCAS';
  const shownTab = (tab === 'SETPOINT_LIST' && !seesSetpoints) || (tab === 'TRADING' && !seesTrading) ? 'MAP' : tab;
  const editable = canEdit && vpp.data && vpp.data.type !== 'FCAS';

  return (
    <PageLayout
      title={vpp.data?.name ?? 'Virtual Power Plant'}
      permission={VPP_VIEW}
      breadcrumb={[{ label: 'Virtual Power Plants' }, { label: 'Build and Edit', to: VPP_LIST_PATH }, { label: vpp.data?.name ?? `${id}` }]}
      actions={
        vpp.data && (
          <Group gap="xs">
            <AddNewMenu id={id} fcas={vpp.data.type === 'FCAS'} />
            {editable && (
              <>
                <Button component={Link} to={vppEditPath(id)} leftSection={<IconPencil size={16} />}>
                  Edit
                </Button>
                <DeleteVppButton vpp={vpp.data} />
              </>
            )}
          </Group>
        )
      }
    >
      {vpp.isLoading && <LoadingSkeleton />}
      {isNotFound(vpp.error) && <NotFound text={VPP_NOT_FOUND} listPath={VPP_LIST_PATH} backLabel="Back to Virtual Power Plants" />}
      {vpp.data && (
        <Stack gap="lg">
          <VppRule vpp={vpp.data} />
          <NameplateSummary namePlate={vpp.data.namePlate} />
          <VppEvents id={id} />
          <Tabs value={shownTab} onChange={(v) => set({ tab: (v ?? 'MAP') as (typeof TABS)[number], f: null, offset: 0, limit })} keepMounted={false}>
            <Tabs.List>
              <Tabs.Tab value="MAP">Map</Tabs.Tab>
              <Tabs.Tab value="DEPLOYMENT_LIST">List</Tabs.Tab>
              {seesSetpoints && <Tabs.Tab value="SETPOINT_LIST">Default Setpoints</Tabs.Tab>}
              {seesTrading && <Tabs.Tab value="TRADING">Trading</Tabs.Tab>}
            </Tabs.List>
            <Tabs.Panel value="MAP" pt="md">
              <VppMap id={id} linkNodes={linkNodes} />
            </Tabs.Panel>
            <Tabs.Panel value="DEPLOYMENT_LIST" pt="md">
              <NodeList id={id} linkNodes={linkNodes} />
            </Tabs.Panel>
            {seesSetpoints && (
              <Tabs.Panel value="SETPOINT_LIST" pt="md">
                <Suspense fallback={<LoadingSkeleton variant="table" />}>
                  <VppSetpointsTab id={id} />
                </Suspense>
              </Tabs.Panel>
            )}
            {seesTrading && (
              <Tabs.Panel value="TRADING" pt="md">
                <Suspense fallback={<LoadingSkeleton />}>
                  <TradingPanel id={id} />
                </Suspense>
              </Tabs.Panel>
            )}
          </Tabs>
        </Stack>
      )}
    </PageLayout>
  );
}
