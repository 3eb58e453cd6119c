import { Select, Stack, Text, TextInput, Title } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { AUSTRALIAN_STATES, type AustralianState } from '@vpp/shared/constants';
import { VPP_MESSAGES } from '@vpp/shared/vpps/messages';
import { parsePostcodes, VPP_KIND_LABELS, type VppKind, vppFieldErrors } from '@vpp/shared/vpps/rules';
import type { PowerstationBody } from '@vpp/shared/vpps/schemas';
import { DataTable, type OnPage } from '../../components/data-table.tsx';
import { useFilterPreview } from './api.ts';
import { NameplateSummary } from './vpp-nameplate.tsx';
import { nodeColumns } from './vpp-node-columns.tsx';

/** The form's own fields: postcodes as typed (comma-separated), the state as chosen. */
export interface VppFormValues {
  name: string;
  kind: Exclude<VppKind, 'FCAS'>;
  postcodes: string;
  state: AustralianState | null;
}

export const EMPTY_VPP_FORM: VppFormValues = { name: '', kind: 'INDIVIDUAL_NODES', postcodes: '', state: null };

/** The create or update body the form stands for. */
export function bodyOf(v: VppFormValues): PowerstationBody {
  if (v.kind === 'INDIVIDUAL_NODES') return { type: 'STATIC', name: v.name, filters: { postcodes: [], state: null } };
  if (v.kind === 'POSTCODE') return { type: 'DYNAMIC', name: v.name, filters: { postcodes: parsePostcodes(v.postcodes) } };
  return { type: 'DYNAMIC', name: v.name, filters: { state: v.state } };
}

/** Checks the form by the shared rules; sets each message on its field and answers whether it is valid. */
export function checkVppForm(form: UseFormReturnType<VppFormValues>): { valid: boolean; errors: ReturnType<typeof vppFieldErrors> } {
  const errors = vppFieldErrors(bodyOf(form.values));
  form.setErrors({ name: errors.name, postcodes: errors.postcodes, state: errors.state });
  return { valid: Object.keys(errors).length === 0, errors };
}

const KIND_CHOICES = (['INDIVIDUAL_NODES', 'POSTCODE', 'STATE'] as const).map((k) => ({ value: k, label: VPP_KIND_LABELS[k] }));

/** Name, type, and the postcodes or state of an automatic VPP. The type is fixed on edit; changing it on create resets the filter. */
export function VppFormFields({ form, typeLocked }: { form: UseFormReturnType<VppFormValues>; typeLocked: boolean }) {
  const kind = form.values.kind;
  return (
    <Stack gap="sm" maw={520}>
      <TextInput label="Name" withAsterisk maxLength={100} {...form.getInputProps('name')} />
      <Select
        label="Type"
        data={KIND_CHOICES}
        allowDeselect={false}
        disabled={typeLocked}
        description={kind === 'INDIVIDUAL_NODES' ? 'Manual enrolment: you choose the nodes.' : 'Automatic enrolment: nodes join and leave by their address.'}
        {...form.getInputProps('kind')}
        onChange={(v) => {
          if (!v || v === form.values.kind) return;
          form.setValues({ kind: v as VppFormValues['kind'], postcodes: '', state: null });
          form.clearErrors();
        }}
      />
      {kind === 'POSTCODE' && (
        <TextInput label="Postcodes" withAsterisk placeholder="2000, 2042" description="Separate postcodes with commas." {...form.getInputProps('postcodes')} />
      )}
      {kind === 'STATE' && <Select label="State" withAsterisk placeholder="Choose a state" data={[...AUSTRALIAN_STATES]} {...form.getInputProps('state')} />}
    </Stack>
  );
}

/**
 * The fleet's nodes an automatic VPP's filter holds and their nameplate, as the filter is typed
 * (debounced). An empty postcode list matches no node.
 */
export function FilterPreview(props: {
  values: Pick<VppFormValues, 'kind' | 'postcodes' | 'state'>;
  f?: string;
  limit: number;
  offset: number;
  onPage: OnPage;
  linkNodes: boolean;
}) {
  const [values] = useDebouncedValue(props.values, 300);
  const postcodes = values.kind === 'POSTCODE' ? parsePostcodes(values.postcodes).filter((p) => /^\d{4}$/.test(p)) : undefined;
  const enabled = values.kind === 'POSTCODE' || (values.kind === 'STATE' && !!values.state);
  const preview = useFilterPreview({ postcodes, state: values.state, f: props.f, limit: props.limit, offset: props.offset }, enabled);
  if (values.kind === 'INDIVIDUAL_NODES') return null;
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        Matching nodes
      </Title>
      {!enabled ? (
        <Text c="dimmed">Choose a state to see its nodes.</Text>
      ) : (
        <>
          {preview.data?.nameplate && <NameplateSummary namePlate={preview.data.nameplate} />}
          <DataTable
            label="Matching nodes"
            columns={nodeColumns(props.linkNodes)}
            rows={preview.data?.deployments}
            rowKey={(n) => n.id}
            total={preview.data?.total ?? 0}
            limit={props.limit}
            offset={props.offset}
            onPage={props.onPage}
            empty={VPP_MESSAGES.noNodesForFilter}
            loading={preview.isLoading}
          />
        </>
      )}
    </Stack>
  );
}
