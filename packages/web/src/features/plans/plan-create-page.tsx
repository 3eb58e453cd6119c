import { Button } from '@mantine/core';
import { PLAN_EDIT } from '@vpp/shared/customers/permissions';
import { Link, useNavigate } from 'react-router';
import { PageLayout } from '../../components/page-layout.tsx';
import { usePlanSave } from './api.ts';
import { PlanForm } from './plan-form.tsx';
import { bodyOf, EMPTY_PLAN_FORM } from './plan-form-state.ts';
import { PLAN_LIST_PATH, PLANS_BREADCRUMB, planPath } from './plan-paths.ts';

/** New plan (/customers/plans/new): once saved, the plan's own page (spec 3 §2.1). */
export function PlanCreatePage() {
  const navigate = useNavigate();
  const { onSave, saving } = usePlanSave(undefined, (plan) => navigate(planPath(plan.planCode)));
  return (
    <PageLayout title="New Plan" permission={PLAN_EDIT} breadcrumb={[PLANS_BREADCRUMB, { label: 'Plans', to: PLAN_LIST_PATH }, { label: 'New' }]}>
      <PlanForm
        mode="create"
        initial={EMPTY_PLAN_FORM}
        onSave={(values) => onSave(bodyOf(values))}
        saving={saving}
        actions={
          <Button variant="default" component={Link} to={PLAN_LIST_PATH}>
            Cancel
          </Button>
        }
      />
    </PageLayout>
  );
}
