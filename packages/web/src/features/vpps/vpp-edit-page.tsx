import { Button, Group, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { VPP_MESSAGES } from '@vpp/shared/vpps/messages';
import { NODE_VIEW, VPP_EDIT } from '@vpp/shared/vpps/permissions';
import { storedVppKind } from '@vpp/shared/vpps/rules';
import type { Powerstation } from '@vpp/shared/vpps/schemas';
import { useEffect } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { pagingSearch } from '../../components/data-table.tsx';
import { LoadingSkeleton } from '../../components/loading-skeleton.tsx';
import { NotFound } from '../../components/not-found.tsx';
import { PageLayout } from '../../components/page-layout.tsx';
import { usePermission } from '../../lib/permission-gate.tsx';
import { isNotFound } from '../../lib/request.ts';
import { param, useSearchState } from '../../lib/search-state.ts';
import { toast } from '../../lib/toasts.ts';
import { usePatchPowerstation, usePowerstation, useUpdatePowerstation, VPP_NOT_FOUND } from './api.ts';
import { NodeInclusion } from './node-inclusion.tsx';
import { bodyOf, checkVppForm, EMPTY_VPP_FORM, FilterPreview, VppFormFields, type VppFormValues } from './vpp-form.tsx';
import { VPP_LIST_PATH, vppMapPath } from './vpp-paths.ts';

const vppEditSearch = pagingSearch.extend({ f: param.text() });

function valuesOf(vpp: Powerstation): VppFormValues {
  const kind = storedVppKind({ type: vpp.type, state: vpp.filters.state });
  return { name: vpp.name, kind: kind === 'FCAS' ? 'INDIVIDUAL_NODES' : kind, postcodes: vpp.filters.postcodes.join(', '), state: vpp.filters.state };
}

/**
 * VPP edit (/virtual-power-plants/manage/{id}/edit): name and filter; a manual VPP's nodes are
 * toggled here and saved at once. Saving lands on the detail's map tab.
 */
export function VppEditPage() {
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const vpp = usePowerstation(id);
  const form = useForm<VppFormValues>({ initialValues: EMPTY_VPP_FORM });
  const update = useUpdatePowerstation(id);
  const patch = usePatchPowerstation(id);
  const linkNodes = usePermission(NODE_VIEW);
  const [{ f, limit, offset }, setSearch] = useSearchState(vppEditSearch);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the form is filled once, from the loaded VPP
  useEffect(() => {
    if (vpp.data && !form.initialized) form.initialize(valuesOf(vpp.data));
  }, [vpp.data]);

  const submit = form.onSubmit(() => {
    const { valid, errors } = checkVppForm(form);
    if (!valid) {
      const message = errors.name ? VPP_MESSAGES.invalidNameOnEdit : errors.state ? VPP_MESSAGES.invalidStateOnEdit : VPP_MESSAGES.invalidPostcodeOnEdit;
      toast('error', VPP_MESSAGES.invalidTitle, message);
      return;
    }
    const body = bodyOf(form.values);
    const done = { onSuccess: () => navigate(vppMapPath(id)) };
    // A manual VPP's nodes are already saved: its Save is a rename-only patch.
    if (body.type === 'STATIC') patch.mutate({ body: { name: body.name } }, done);
    else update.mutate(body, done);
  });

  const title = vpp.data ? `Edit ${vpp.data.name}` : 'Edit Virtual Power Plant';
  return (
    <PageLayout
      title={title}
      permission={VPP_EDIT}
      breadcrumb={[
        { label: 'Virtual Power Plants' },
        { label: 'Build and Edit', to: VPP_LIST_PATH },
        ...(vpp.data ? [{ label: vpp.data.name, to: vppMapPath(id) }] : []),
        { label: 'Edit' },
      ]}
    >
      {vpp.isLoading && <LoadingSkeleton variant="lines" />}
      {isNotFound(vpp.error) && <NotFound text={VPP_NOT_FOUND} listPath={VPP_LIST_PATH} backLabel="Back to Virtual Power Plants" />}
      {vpp.data?.type === 'FCAS' && <Text>{VPP_MESSAGES.fcasNotEditable}</Text>}
      {vpp.data && vpp.data.type !== 'FCAS' && form.initialized && (
        <Stack gap="xl">
          <form onSubmit={submit} noValidate aria-label="Edit Virtual Power Plant">
            <Stack gap="md">
              <VppFormFields form={form} typeLocked />
              <Group>
                <Button type="submit" loading={update.isPending || (patch.isPending && !!patch.variables?.body.name)}>
                  Save
                </Button>
                <Button variant="default" component={Link} to={vppMapPath(id)}>
                  Cancel
                </Button>
              </Group>
            </Stack>
          </form>
          {vpp.data.type === 'STATIC' ? (
            <NodeInclusion id={id} linkNodes={linkNodes} />
          ) : (
            <FilterPreview
              values={form.values}
              f={f || undefined}
              limit={limit}
              offset={offset}
              onPage={(l, o, replace) => setSearch({ limit: l, offset: o }, { replace })}
              linkNodes={linkNodes}
            />
          )}
        </Stack>
      )}
    </PageLayout>
  );
}
