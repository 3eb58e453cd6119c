import { Button, Paper, Table, Text, Title } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { PLAN_EDIT, PLAN_VIEW } from '@vpp/shared/customers/permissions';
import { PLAN_MESSAGES } from '@vpp/shared/plans/messages';
import type { Plan } from '@vpp/shared/plans/schemas';
import type { ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { LoadingSkeleton } from '../../components/loading-skeleton.tsx';
import { NotFound } from '../../components/not-found.tsx';
import { type Crumb, PageLayout } from '../../components/page-layout.tsx';
import { usePermission } from '../../lib/permission-gate.tsx';
import { isNotFound } from '../../lib/request.ts';
import { usePlanByCode, usePlanSave } from './api.ts';
import { PlanForm } from './plan-form.tsx';
import { bodyOf, planFormOf } from './plan-form-state.ts';
import { formatIsoDate, PLAN_LIST_PATH, PLANS_BREADCRUMB, planEditPath, planPath } from './plan-paths.ts';

/** The plan of the route's code (React Router hands it decoded), with the loading and not-found states. */
function PlanLoader(props: {
  title: (plan: Plan | undefined) => string;
  edit: boolean;
  children: (plan: Plan) => ReactNode;
  actions?: (plan: Plan) => ReactNode;
}) {
  const code = useParams().planCode ?? '';
  const plan = usePlanByCode(code);
  const crumbs: Crumb[] = [PLANS_BREADCRUMB, { label: 'Plans', to: PLAN_LIST_PATH }];
  if (plan.data) crumbs.push({ label: plan.data.name, to: props.edit ? planPath(plan.data.planCode) : undefined });
  if (props.edit) crumbs.push({ label: 'Edit' });
  return (
    <PageLayout
      title={props.title(plan.data)}
      permission={props.edit ? PLAN_EDIT : PLAN_VIEW}
      breadcrumb={crumbs}
      actions={plan.data && props.actions?.(plan.data)}
    >
      {plan.isLoading && <LoadingSkeleton />}
      {isNotFound(plan.error) && <NotFound text={PLAN_MESSAGES.notFound} listPath={PLAN_LIST_PATH} backLabel="Back to Plans" />}
      {plan.isError && !isNotFound(plan.error) && <Text c="dimmed">{PLAN_MESSAGES.loadFailed}</Text>}
      {plan.data && props.children(plan.data)}
    </PageLayout>
  );
}

/** The plan's versions: an edit that changes prices from a later date adds one; the earlier keeps applying before it. */
function Versions({ plan }: { plan: Plan }) {
  return (
    <Paper withBorder p="md" component="section" aria-label="Versions">
      <Title order={2} size="h4" mb="sm">
        Versions
      </Title>
      <Table aria-label="Plan versions" maw={480}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>From</Table.Th>
            <Table.Th>Until</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {plan.versions.map((v) => (
            <Table.Tr key={v.startDate}>
              <Table.Td>{formatIsoDate(v.startDate)}</Table.Td>
              <Table.Td>{v.endDate ? formatIsoDate(v.endDate) : ''}</Table.Td>
              <Table.Td>{v.latest ? 'Current' : ''}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

/** Plan view (/customers/plans/{planCode}): the form, read-only, with its customer count and versions; Edit for plan editors. */
export function PlanViewPage() {
  const canEdit = usePermission(PLAN_EDIT);
  return (
    <PlanLoader
      title={(p) => p?.name ?? 'Plan'}
      edit={false}
      actions={(p) =>
        canEdit && (
          <Button component={Link} to={planEditPath(p.planCode)} leftSection={<IconPencil size={16} />}>
            Edit
          </Button>
        )
      }
    >
      {(plan) => (
        <>
          <Text size="sm" c="dimmed">
            {plan.customersCount === 1 ? '1 customer is on this plan.' : `${plan.customersCount} customers are on this plan.`}
          </Text>
          <PlanForm key={`${plan.uid}-${plan.updatedAt}`} mode="view" initial={planFormOf(plan)} />
          <Versions plan={plan} />
        </>
      )}
    </PlanLoader>
  );
}

function EditForm({ plan }: { plan: Plan }) {
  const navigate = useNavigate();
  const { onSave, saving } = usePlanSave(plan.uid, (saved) => navigate(planPath(saved.planCode)));
  return (
    <PlanForm
      key={`${plan.uid}-${plan.updatedAt}`}
      mode="edit"
      initial={planFormOf(plan)}
      onSave={(values) => onSave(bodyOf(values, plan.uid))}
      saving={saving}
      actions={
        <Button variant="default" component={Link} to={planPath(plan.planCode)}>
          Cancel
        </Button>
      }
    />
  );
}

/** Plan edit (/customers/plans/{planCode}/edit): once saved, the plan's page. */
export function PlanEditPage() {
  return (
    <PlanLoader title={(p) => (p ? `Edit ${p.name}` : 'Edit Plan')} edit>
      {(plan) => <EditForm plan={plan} />}
    </PlanLoader>
  );
}
