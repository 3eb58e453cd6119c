import { Button, Group, Stack } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { CURTAILMENT_MESSAGES } from '@vpp/shared/curtailments/messages';
import { CURTAILMENT_EDIT } from '@vpp/shared/curtailments/permissions';
import { useState } from 'react';
import { usePaging } from '../../components/data-table.tsx';
import { useTimeZone } from '../../lib/account.ts';
import { usePermission } from '../../lib/permission-gate.tsx';
import { useVppSetpoints } from './api.ts';
import { SetpointTable } from './curtailment-tables.tsx';
import { NewSetpointModal } from './new-setpoint-modal.tsx';

/**
 * A VPP's Default Setpoints tab (spec 2 §2, `tab=SETPOINT_LIST`): its setpoints newest first, paged
 * in the URL, and New Default Setpoint on this VPP for those who may edit.
 */
export function VppSetpointsTab({ id }: { id: number }) {
  const { limit, offset, setPage } = usePaging();
  const setpoints = useVppSetpoints(id, { limit, offset });
  const zone = useTimeZone();
  const canEdit = usePermission(CURTAILMENT_EDIT);
  const [creating, setCreating] = useState(false);
  return (
    <Stack gap="sm">
      {canEdit && (
        <Group justify="flex-end">
          <Button variant="light" leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            {CURTAILMENT_MESSAGES.newSetpoint}
          </Button>
        </Group>
      )}
      <SetpointTable
        zone={zone}
        nowS={(setpoints.dataUpdatedAt || Date.now()) / 1000}
        withVpp={false}
        page={{ rows: setpoints.data?.setpoints, total: setpoints.data?.total ?? 0, loading: setpoints.isLoading, limit, offset, onPage: setPage }}
      />
      {canEdit && <NewSetpointModal opened={creating} onClose={() => setCreating(false)} powerstationId={id} />}
    </Stack>
  );
}
