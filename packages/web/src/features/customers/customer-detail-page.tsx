import { Anchor, Button, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { CUSTOMER_MESSAGES } from '@vpp/shared/customers/messages';
import { networkOfNmi, outsideNem } from '@vpp/shared/customers/networks';
import { CUSTOMER_VIEW, PLAN_VIEW } from '@vpp/shared/customers/permissions';
import type { CustomerDetail, InstallationStatus } from '@vpp/shared/customers/schemas';
import type { NodeStatus } from '@vpp/shared/nodes/schemas';
import { PLAN_TYPE_LABELS } from '@vpp/shared/plans/constants';
import { RATE_DECIMALS } from '@vpp/shared/plans/rules';
import { NODE_VIEW } from '@vpp/shared/vpps/permissions';
import { type ReactNode, useMemo } from 'react';
import { Link, useParams } from 'react-router';
import { LoadingSkeleton } from '../../components/loading-skeleton.tsx';
import { NodeMap } from '../../components/node-map.tsx';
import { coordinates } from '../../components/node-map-types.ts';
import { NotFound } from '../../components/not-found.tsx';
import { PageLayout } from '../../components/page-layout.tsx';
import { useAccount } from '../../lib/account.ts';
import { usePermission } from '../../lib/permission-gate.tsx';
import { isNotFound } from '../../lib/request.ts';
import { Figure, Section } from '../events/index.ts';
import { formatIsoDate, planPath } from '../plans/index.ts';
import { useBillEstimate, useCustomer, useCustomerPlan } from './api.ts';
import { BillEstimateView } from './bill-estimate.tsx';
import { CUSTOMER_LIST_PATH, capabilityLabel, installAddress } from './customer-format.ts';

const INSTALLATION_LABELS: Record<InstallationStatus, string> = {
  COMMISSIONED: 'Commissioned',
  AWAITING_CONTACT: 'Awaiting Contact',
  NOT_COMMISSIONED: 'Not Commissioned',
};
// The map colours a point by the fleet's node statuses: a commissioned system shows as online.
const MAP_STATUS: Record<InstallationStatus, NodeStatus> = {
  COMMISSIONED: 'ONLINE',
  AWAITING_CONTACT: 'AWAITING_CONTACT',
  NOT_COMMISSIONED: 'NOT_COMMISSIONED',
};

function Rows({ rows, label }: { rows: [string, ReactNode][]; label: string }) {
  return (
    <Table w="fit-content" withRowBorders={false} aria-label={label}>
      <Table.Tbody>
        {rows.map(([k, v]) => (
          <Table.Tr key={k}>
            <Table.Th pl={0}>{k}</Table.Th>
            <Table.Td>{v}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The location panel: the install address and the home on the app's map. */
function LocationSection({ c }: { c: CustomerDetail }) {
  const address = installAddress(c);
  const nodes = useMemo(
    () => [{ id: c.deploymentUid, lat: c.lat, lng: c.long, displayStatus: MAP_STATUS[c.installationStatus], siteLabel: c.nmi, address }],
    [c.deploymentUid, c.lat, c.long, c.installationStatus, c.nmi, address],
  );
  return (
    <Section title="Location">
      <Rows
        label="Location"
        rows={[
          ['NMI', c.nmi],
          ['Install Address', address],
          ['Coordinates', coordinates(c.lat, c.long)],
        ]}
      />
      <NodeMap nodes={nodes} zoom={13} height={320} label="Customer location" />
    </Section>
  );
}

function SystemSection({ c, linkNode }: { c: CustomerDetail; linkNode: boolean }) {
  return (
    <Section title="System">
      <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="md" mb="sm">
        <Figure label="Battery capacity">{`${c.capacity} kWh`}</Figure>
        <Figure label="Maximum power">{`${c.maxPower} kW`}</Figure>
        <Figure label="Installation">{INSTALLATION_LABELS[c.installationStatus]}</Figure>
        <Figure label="Agreement">{c.agreementVersion === null ? 'None' : `Version ${c.agreementVersion}`}</Figure>
        <Figure label="Agreement date">{c.agreementDate ? formatIsoDate(c.agreementDate) : '–'}</Figure>
        {linkNode && (
          <Figure label="Node">
            <Anchor component={Link} to={`/fleet-monitoring/nodes/${c.deploymentUid}`}>
              {c.deploymentUid}
            </Anchor>
          </Figure>
        )}
      </SimpleGrid>
      {c.contracts.length > 0 && (
        <Table aria-label="Contracts">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Contract</Table.Th>
              <Table.Th>Start Date</Table.Th>
              <Table.Th>End Date</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {c.contracts.map((k) => (
              <Table.Tr key={`${k.contractName}-${k.startDate}`}>
                <Table.Td>{k.contractName}</Table.Td>
                <Table.Td>{formatIsoDate(k.startDate)}</Table.Td>
                <Table.Td>{k.endDate ? formatIsoDate(k.endDate) : CUSTOMER_MESSAGES.ongoing}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Section>
  );
}

/** The Information panel (NETWORK organisations): the home's distribution network and connection. */
function InformationSection({ info }: { info: NonNullable<CustomerDetail['information']> }) {
  return (
    <Section title="Information">
      <Rows
        label="Network information"
        rows={[
          ['Network', info.network?.name ?? 'Unknown'],
          ['Region', info.region],
          ['Phases', String(info.phases)],
          ['Inverter', `${info.inverterKw} kW`],
          ['Solar', `${info.solarKw} kW`],
        ]}
      />
    </Section>
  );
}

/** The current plan (retailers holding plans.any) with View Plan Details, and the bill it gives. */
function PlanSection({ nmi, state }: { nmi: string; state: string }) {
  const plan = useCustomerPlan(nmi, true);
  // Issue 33 item 8: a home in WA or NT is not offered NEM retail plans; the section says why.
  const network = networkOfNmi(nmi, state);
  const outside = network ? outsideNem(network) : null;
  const bill = useBillEstimate(nmi, true);
  const p = plan.data?.plan;
  return (
    <>
      <Section title="Current Plan">
        {plan.isLoading && <LoadingSkeleton variant="lines" rows={2} />}
        {plan.isError && <Text c="dimmed">{CUSTOMER_MESSAGES.planFailed}</Text>}
        {plan.data && !p && <Text c="dimmed">{outside ?? CUSTOMER_MESSAGES.noPlan}</Text>}
        {p && (
          <Stack gap="sm">
            <Rows
              label="Current plan"
              rows={[
                ['Plan', `${p.name} (${p.planCode})`],
                ['Plan Type', PLAN_TYPE_LABELS[p.tariffType]],
                ['Network', p.operationalNetwork],
                ...(plan.data?.since ? [['On this plan since', formatIsoDate(plan.data.since)] as [string, string]] : []),
                ['Daily Charge', `$${p.dailyCharge.toFixed(RATE_DECIMALS)}/day`],
                ['Feed In Tariff', `$${p.feedInTariff.toFixed(RATE_DECIMALS)}/kWh`],
                ...(p.discount ? [['Discount', `${p.discount} %`] as [string, string]] : []),
              ]}
            />
            <div>
              <Button component={Link} to={planPath(p.planCode)} variant="light">
                {CUSTOMER_MESSAGES.viewPlanDetails}
              </Button>
            </div>
          </Stack>
        )}
      </Section>
      {p && (
        <Section title="Bill Estimate">
          {bill.isLoading && <LoadingSkeleton variant="lines" rows={3} />}
          {bill.isError && <Text c="dimmed">{CUSTOMER_MESSAGES.billFailed}</Text>}
          {bill.data && <BillEstimateView current={bill.data.current} last={bill.data.last} />}
        </Section>
      )}
    </>
  );
}

function CapabilitiesSection({ c }: { c: CustomerDetail }) {
  return (
    <Section title="Capabilities">
      {c.capabilityHistory.length === 0 ? (
        <Text c="dimmed">This customer has no capabilities.</Text>
      ) : (
        <Table aria-label="Capabilities">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Start Date</Table.Th>
              <Table.Th>End Date</Table.Th>
              <Table.Th>Capability</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {c.capabilityHistory.map((k) => (
              <Table.Tr key={`${k.capability}-${k.startDate}`}>
                <Table.Td>{formatIsoDate(k.startDate)}</Table.Td>
                <Table.Td>{k.endDate ? formatIsoDate(k.endDate) : CUSTOMER_MESSAGES.ongoing}</Table.Td>
                <Table.Td>{capabilityLabel(k.capability)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Section>
  );
}

/**
 * Customer detail (/customers/manage/{nmi}, spec 3 §2.8): location with the map, the system and
 * agreement, the network information (networks), the current plan and its bill estimate (retailers
 * holding plans.any), and the capabilities over time.
 */
export function CustomerDetailPage() {
  const nmi = useParams().nmi ?? '';
  const customer = useCustomer(nmi);
  const account = useAccount().data;
  const seesPlans = usePermission(PLAN_VIEW);
  const linkNode = usePermission(NODE_VIEW);
  const c = customer.data;
  const showPlan = account?.suborg_type === 'RETAILER' && seesPlans;
  return (
    <PageLayout
      title={c ? c.nmi : nmi}
      permission={CUSTOMER_VIEW}
      breadcrumb={[{ label: 'Customers' }, { label: 'Manage', to: CUSTOMER_LIST_PATH }, { label: nmi }]}
    >
      {customer.isLoading && <LoadingSkeleton />}
      {isNotFound(customer.error) && <NotFound text={CUSTOMER_MESSAGES.notFound} listPath={CUSTOMER_LIST_PATH} backLabel="Back to Customers" />}
      {customer.isError && !isNotFound(customer.error) && <Text c="dimmed">{CUSTOMER_MESSAGES.detailFailed}</Text>}
      {c && (
        <Stack gap="md">
          <Text c="dimmed">{installAddress(c)}</Text>
          <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
            <LocationSection c={c} />
            <Stack gap="md">
              <SystemSection c={c} linkNode={linkNode} />
              {c.information && <InformationSection info={c.information} />}
              <CapabilitiesSection c={c} />
            </Stack>
          </SimpleGrid>
          {showPlan && <PlanSection nmi={c.nmi} state={c.state} />}
        </Stack>
      )}
    </PageLayout>
  );
}
