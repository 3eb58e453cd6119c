import { Alert, Select, Text } from '@mantine/core';
import type { Account } from '@vpp/shared/account/schemas';
import type { SuborgType } from '@vpp/shared/constants';
import { EXPORT_MESSAGES as M } from '@vpp/shared/exports/messages';
import type { ExportCreateBody } from '@vpp/shared/exports/schemas';
import type { Powerstation } from '@vpp/shared/vpps/schemas';
import { ExportFormFrame } from './export-form-frame.tsx';

/** The New Customer Data Export form's choices: a VPP (none: all customers) and the network's Customer Set. */
export interface CustomerDraft {
  powerstation: number | null;
  /** NETWORK only: true 'All customers in Fleet', false 'All customers on my network'. */
  allCustomers: boolean;
}

export const initialCustomerDraft = (): CustomerDraft => ({ powerstation: null, allCustomers: false });

/** The create payload (spec 2 §3): installers send no VPP, only networks a customer set. */
export function customerBody(d: CustomerDraft, account: Pick<Account, 'id' | 'suborg_type'> & { timezone: string }): ExportCreateBody {
  return {
    type: 'customer',
    params: {
      ...(account.suborg_type === 'INSTALLER' ? {} : { powerstation: d.powerstation }),
      user: account.id,
      timezone: account.timezone,
      ...(account.suborg_type === 'NETWORK' ? { allCustomers: d.allCustomers } : {}),
    },
  };
}

/**
 * The New Customer Data Export form (spec 2 §2): the VPP selector (not for installers), the Customer
 * Set for network organisations, and for retailers without a VPP the note that all customers in
 * Fleet are exported.
 */
export function CustomerExportForm(props: {
  draft: CustomerDraft;
  update: (d: CustomerDraft) => void;
  suborgType: SuborgType;
  powerstations: Powerstation[] | undefined;
  submitting: boolean;
  onCancel: () => void;
  onSubmit: () => void;
}) {
  const { draft: d, suborgType } = props;
  return (
    <ExportFormFrame submitting={props.submitting} onCancel={props.onCancel} onSubmit={props.onSubmit}>
      {suborgType !== 'INSTALLER' && (
        <Select
          label="Virtual Power Plant"
          placeholder={props.powerstations ? 'All customers' : 'Loading…'}
          searchable
          clearable
          data={(props.powerstations ?? []).map((p) => ({ value: String(p.id), label: p.name }))}
          value={d.powerstation === null ? null : String(d.powerstation)}
          onChange={(v) => props.update({ ...d, powerstation: v ? Number(v) : null })}
          comboboxProps={{ withinPortal: true }}
        />
      )}
      {suborgType === 'NETWORK' && (
        <Select
          label={M.customerSet}
          data={[
            { value: 'network', label: M.allCustomersOnNetwork },
            { value: 'fleet', label: M.allCustomersInFleet },
          ]}
          value={d.allCustomers ? 'fleet' : 'network'}
          allowDeselect={false}
          onChange={(v) => props.update({ ...d, allCustomers: v === 'fleet' })}
          comboboxProps={{ withinPortal: true }}
        />
      )}
      {suborgType === 'RETAILER' && d.powerstation === null && (
        <Alert color="blue" variant="light">
          {M.retailerNoVpp}
        </Alert>
      )}
      {suborgType === 'INSTALLER' && (
        <Text size="sm" c="dimmed">
          The export holds every customer of your fleet.
        </Text>
      )}
    </ExportFormFrame>
  );
}
