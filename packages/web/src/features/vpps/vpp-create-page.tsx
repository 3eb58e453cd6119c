import { Button, Group, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { DEFAULT_PAGE_SIZE } from '@vpp/shared/constants';
import { VPP_MESSAGES } from '@vpp/shared/vpps/messages';
import { NODE_VIEW, VPP_EDIT } from '@vpp/shared/vpps/permissions';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { PageLayout } from '../../components/page-layout.tsx';
import { usePermission } from '../../lib/permission-gate.tsx';
import { toast } from '../../lib/toasts.ts';
import { useCreatePowerstation } from './api.ts';
import { bodyOf, checkVppForm, EMPTY_VPP_FORM, FilterPreview, VppFormFields, type VppFormValues } from './vpp-form.tsx';
import { VPP_LIST_PATH, vppEditPath, vppMapPath } from './vpp-paths.ts';

/** New VPP (/virtual-power-plants/manage/new): a manual VPP lands on its edit screen to choose nodes, an automatic one on its map. */
export function VppCreatePage() {
  const navigate = useNavigate();
  const form = useForm<VppFormValues>({ initialValues: EMPTY_VPP_FORM });
  const [page, setPage] = useState({ limit: DEFAULT_PAGE_SIZE, offset: 0 });
  const create = useCreatePowerstation();
  const linkNodes = usePermission(NODE_VIEW);
  const { kind, postcodes, state } = form.values;
  // A changed filter shows its matches from the first page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the filter fields are the trigger
  useEffect(() => setPage((p) => ({ ...p, offset: 0 })), [kind, postcodes, state]);

  const submit = form.onSubmit(() => {
    if (!checkVppForm(form).valid) {
      toast('error', VPP_MESSAGES.invalidTitle, VPP_MESSAGES.invalidOnCreate);
      return;
    }
    create.mutate(bodyOf(form.values), {
      onSuccess: ({ data }) => navigate(data.type === 'STATIC' ? vppEditPath(data.id) : vppMapPath(data.id)),
    });
  });

  return (
    <PageLayout
      title="New Virtual Power Plant"
      permission={VPP_EDIT}
      breadcrumb={[{ label: 'Virtual Power Plants' }, { label: 'Build and Edit', to: VPP_LIST_PATH }, { label: 'New' }]}
    >
      <form onSubmit={submit} noValidate aria-label="New Virtual Power Plant">
        <Stack gap="md">
          <VppFormFields form={form} typeLocked={false} />
          <Group>
            <Button type="submit" loading={create.isPending}>
              Create
            </Button>
            <Button variant="default" component={Link} to={VPP_LIST_PATH}>
              Cancel
            </Button>
          </Group>
        </Stack>
      </form>
      <FilterPreview
        values={form.values}
        limit={page.limit}
        offset={page.offset}
        onPage={(limit, offset) => setPage({ limit, offset })}
        linkNodes={linkNodes}
      />
    </PageLayout>
  );
}
