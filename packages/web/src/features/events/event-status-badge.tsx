import { Badge } from '@mantine/core';
import type { DispatchSummary } from '@vpp/shared/dispatches/schemas';
import { dispatchStatusLabel } from './event-format.ts';

const STATUS_COLORS = { Upcoming: 'blue', 'In Progress': 'green', Completed: 'gray', Cancelled: 'red' } as const;

/** The status of a dispatch as a badge ('In Progress' for INPROGRESS). */
export function DispatchStatusBadge({ dispatch }: { dispatch: Pick<DispatchSummary, 'state' | 'cancelledAt'> }) {
  const label = dispatchStatusLabel(dispatch);
  return (
    <Badge variant="light" color={STATUS_COLORS[label as keyof typeof STATUS_COLORS]} tt="none">
      {label}
    </Badge>
  );
}
