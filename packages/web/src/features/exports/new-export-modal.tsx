import { Modal, Paper, SimpleGrid, Stack, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconBolt, IconBuildingStore, IconMapPin } from '@tabler/icons-react';
import { EXPORT_MESSAGES as M } from '@vpp/shared/exports/messages';
import { EXPORT_EDIT } from '@vpp/shared/exports/permissions';
import { type ExportJob, exportMetricsFor } from '@vpp/shared/exports/schemas';
import { epochToLocalDate } from '@vpp/shared/time';
import { type ComponentType, useEffect, useMemo, useState } from 'react';
import { useAccount, useTimeZone } from '../../lib/account.ts';
import { usePermission } from '../../lib/permission-gate.tsx';
import { clearToasts, toast } from '../../lib/toasts.ts';
import { useCreateExport, useExportPowerstations } from './api.ts';
import { CustomerExportForm, customerBody, initialCustomerDraft } from './customer-export-form.tsx';
import { OperationalExportForm } from './operational-export-form.tsx';
import { draftErrors, initialOperationalDraft, type OperationalDraft, type OperationalPrefill, operationalBody, withNode } from './operational-form.ts';

/** The modal's views: the choice of type, then one of the three forms. */
export type ExportView = 'choose' | 'vpp' | 'nodes' | 'customer';

const TITLES: Record<ExportView, string> = { choose: M.chooseTitle, vpp: M.operationalTitle, nodes: M.operationalTitle, customer: M.customerTitle };

/** The form's own warning ('Data Export Errors') is cleared once the form is sent or left. */
const FORM_TOASTS = 'export-form';

/** The permission to view SGA data: meter SGA power is offered only with it (spec 2 §5). */
const SGA_VIEW = 'fleet.node.sga_data.view';

/** A tile named by all it shows, its title then its text (WCAG 2.5.3: the name holds the visible label). */
function Tile(props: { icon: ComponentType<{ size?: number }>; title: string; text: string; onClick: () => void }) {
  const Icon = props.icon;
  return (
    <UnstyledButton onClick={props.onClick} data-tile={props.title}>
      <Paper withBorder p="md" radius="md" h="100%">
        <Stack gap="xs" align="center" ta="center">
          <ThemeIcon size={44} radius="xl" variant="light">
            <Icon size={24} />
          </ThemeIcon>
          <Text fw={600}>{props.title}</Text>
          <Text size="sm" c="dimmed">
            {props.text}
          </Text>
        </Stack>
      </Paper>
    </UnstyledButton>
  );
}

/** The choice of type: Operational Data - VPP (with export edit, not for installers), - Nodes, Customer Data. */
function ExportTypeTiles({ vppTile, onView }: { vppTile: boolean; onView: (v: ExportView) => void }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: vppTile ? 3 : 2 }}>
      {vppTile && <Tile icon={IconBolt} title={M.tileVpp} text="Every node of a Virtual Power Plant, or their sum." onClick={() => onView('vpp')} />}
      <Tile icon={IconMapPin} title={M.tileNodes} text="The nodes you search for and choose." onClick={() => onView('nodes')} />
      <Tile
        icon={IconBuildingStore}
        title={M.tileCustomer}
        text="The customer records of a Virtual Power Plant or of your fleet."
        onClick={() => onView('customer')}
      />
    </SimpleGrid>
  );
}

/**
 * New Export (spec 2 §2): "New Data Export" with its three tiles (Operational Data - VPP only with
 * export edit), then "New Operational Data Export" or "New Customer Data Export". Begin Export
 * checks the form first: on any error 'Data Export Errors' and nothing is sent (spec 2 §5); a sent
 * export closes the modal (`onClose('done')`) after `onCreated`. Cancel is `onClose('cancel')`.
 */
export function NewExportModal(props: {
  view: ExportView | null;
  onView: (v: ExportView) => void;
  onClose: (how: 'cancel' | 'done') => void;
  onCreated: (job: ExportJob) => void;
  prefill?: OperationalPrefill;
}) {
  const { view, prefill } = props;
  const account = useAccount().data;
  const zone = useTimeZone();
  const canEdit = usePermission(EXPORT_EDIT);
  const canSga = usePermission(SGA_VIEW);
  const suborgType = account?.suborg_type ?? 'RETAILER';
  const allowed = useMemo(() => exportMetricsFor(suborgType, canSga), [suborgType, canSga]);
  const fullScreen = useMediaQuery('(max-width: 48em)');
  // Installers have no VPPs to export (spec 2 gives them no VPP selector): no tile leading to an empty list.
  const vppTile = canEdit && suborgType !== 'INSTALLER';
  const today = epochToLocalDate(Date.now() / 1000, zone);

  const [draft, setDraft] = useState<OperationalDraft>(() => initialOperationalDraft('nodes', allowed, prefill));
  const [customer, setCustomer] = useState(initialCustomerDraft);
  const [tried, setTried] = useState(false);

  // Each form opens fresh, with the redirect's prefill for the node export.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new form when the view changes (the prefill and metrics are read then)
  useEffect(() => {
    setTried(false);
    clearToasts(FORM_TOASTS);
    if (view === 'vpp' || view === 'nodes') setDraft(initialOperationalDraft(view, allowed, view === 'nodes' ? prefill : {}));
    if (view === 'customer') setCustomer(initialCustomerDraft());
  }, [view]);
  // The linked node arrives after its details load.
  // (Once: a node the user then removes stays removed.)
  const linkedId = prefill?.node?.id;
  const linkedLabel = prefill?.node?.label;
  useEffect(() => {
    if (linkedId !== undefined && linkedLabel !== undefined && view === 'nodes') setDraft((d) => withNode(d, { id: linkedId, label: linkedLabel }));
  }, [linkedId, linkedLabel, view]);

  const powerstations = useExportPowerstations(view === 'vpp' || (view === 'customer' && suborgType !== 'INSTALLER'));
  const create = useCreateExport();
  const errors = tried ? draftErrors(draft, zone) : {};
  const send = (body: Parameters<typeof create.mutate>[0]) =>
    create.mutate(body, {
      onSuccess: (job) => {
        props.onCreated(job);
        props.onClose('done');
      },
    });

  const submitOperational = () => {
    if (!account) return;
    setTried(true);
    if (Object.keys(draftErrors(draft, zone)).length > 0) {
      toast('warning', M.errorsTitle, M.errorsBody, FORM_TOASTS);
      return;
    }
    clearToasts(FORM_TOASTS);
    send(operationalBody(draft, { id: account.id, timezone: zone }));
  };

  return (
    <Modal
      opened={view !== null}
      onClose={() => props.onClose('cancel')}
      title={view ? TITLES[view] : ''}
      size={view === 'choose' ? 760 : 620}
      fullScreen={fullScreen}
      closeOnClickOutside={false}
    >
      {view === 'choose' && <ExportTypeTiles vppTile={vppTile} onView={props.onView} />}
      {(view === 'vpp' || view === 'nodes') && (
        <OperationalExportForm
          draft={draft}
          update={setDraft}
          allowed={allowed}
          powerstations={powerstations.data}
          today={today}
          zone={zone}
          errors={errors}
          submitting={create.isPending}
          onCancel={() => props.onClose('cancel')}
          onSubmit={submitOperational}
        />
      )}
      {view === 'customer' && (
        <CustomerExportForm
          draft={customer}
          update={setCustomer}
          suborgType={suborgType}
          powerstations={powerstations.data}
          submitting={create.isPending}
          onCancel={() => props.onClose('cancel')}
          onSubmit={() => account && send(customerBody(customer, { id: account.id, timezone: zone, suborg_type: account.suborg_type }))}
        />
      )}
    </Modal>
  );
}
