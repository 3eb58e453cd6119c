import { Group, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import type { DispatchSummary } from '@vpp/shared/dispatches/schemas';
import { formatDuration } from '@vpp/shared/format';
import type { PermissionRequirement } from '@vpp/shared/permissions/registry';
import type { ReactNode } from 'react';
import { LoadingSkeleton } from '../../components/loading-skeleton.tsx';
import { NotFound } from '../../components/not-found.tsx';
import { PageLayout } from '../../components/page-layout.tsx';
import { usePermission } from '../../lib/permission-gate.tsx';
import { isNotFound } from '../../lib/request.ts';
import { formatDispatchStart } from './event-format.ts';
import { DispatchStatusBadge } from './event-status-badge.tsx';

// The parts every event kind's detail page is laid out with.

/** A labelled figure of an event's detail. */
export function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </div>
  );
}

/** A titled section of an event's detail page (a region named by its title). */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md" component="section" aria-label={title}>
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

/** An event's window as figures: Start, End (relative to `nowS`, in the zone) and Duration. */
export function WindowFigures({ request: r, zone, nowS }: { request: { startTime: number; duration: number }; zone: string; nowS: number }) {
  return (
    <>
      <Figure label="Start">{formatDispatchStart(r.startTime, zone, nowS)}</Figure>
      <Figure label="End">{formatDispatchStart(r.startTime + r.duration, zone, nowS)}</Figure>
      <Figure label="Duration">{formatDuration(r.duration)}</Figure>
    </>
  );
}

/** How many of an event's nodes did what it asked ('3 of 5 nodes responded'), and a bar of the share. */
export function NodesProgress({ done, of, verb, label }: { done: number; of: number; verb: string; label: string }) {
  return (
    <>
      <Text size="sm">
        {done} of {of} nodes {verb}
      </Text>
      <Progress value={of ? (done / of) * 100 : 0} aria-label={label} size="lg" />
    </>
  );
}

/** The message an event's customers get in their app: its title and text. */
export function CustomerMessageSection({ title, text }: { title: ReactNode; text: ReactNode }) {
  return (
    <Section title="Customer Message">
      <Text fw={600} size="sm">
        {title}
      </Text>
      <Text size="sm">{text}</Text>
    </Section>
  );
}

/** Who may read the creator's name (spec 3 §2.4): holders of a user, dispatch, RERT, curtailment or grid outage permission. */
export const SEES_CREATOR: PermissionRequirement = {
  anyOf: [
    'fleet.myReposit.users',
    'fleet.dispatches.any',
    'fleet.rert.any',
    'fleet.rert.dispatches.any',
    'fleet.curtailments.any',
    'fleet.powerstations.gridOutages.any',
  ],
};

/** What every kind of event shares on its detail page: its reply's state and creator. */
type FramedEvent = Pick<DispatchSummary, 'state' | 'cancelledAt'> & { createdBy: string };

/** Where a kind's detail page sits: its list, the permission it needs, and what it says of an event not found. */
export interface EventFrame {
  listLabel: string;
  listPath: string;
  permission: PermissionRequirement;
  notFound: string;
  backToList: string;
}

/**
 * The frame of an event's detail page, for every kind: the title, the breadcrumb back to its list, the
 * kind's buttons, the loading skeleton, the not-found text; then, once loaded, the status badge, the
 * kind's label and VPP and the creator (for those who may read it, or `creator: 'always'`) above the
 * kind's own sections.
 */
export function EventDetailFrame<T extends FramedEvent>(props: {
  id: number;
  frame: EventFrame;
  detail: { event: T | undefined; isLoading: boolean; error: unknown };
  title: (event: T | undefined, notFound: boolean) => string;
  actions: (event: T) => ReactNode;
  label?: (event: T) => ReactNode;
  vpp?: (event: T) => ReactNode;
  creator?: 'always' | 'permitted';
  children: (event: T) => ReactNode;
}) {
  const { id, frame, detail } = props;
  const permitted = usePermission(SEES_CREATOR);
  const showCreator = props.creator === 'always' || permitted;
  const notFound = isNotFound(detail.error);
  const e = notFound ? undefined : detail.event;
  const vpp = e && props.vpp?.(e);
  return (
    <PageLayout
      title={props.title(e, notFound)}
      permission={frame.permission}
      breadcrumb={[{ label: 'Virtual Power Plants' }, { label: frame.listLabel, to: frame.listPath }, { label: `${id}` }]}
      actions={e && props.actions(e)}
    >
      {detail.isLoading && <LoadingSkeleton />}
      {notFound && <NotFound text={frame.notFound} listPath={frame.listPath} backLabel={frame.backToList} />}
      {e && (
        <Stack gap="md">
          <Group gap="md" align="center">
            <DispatchStatusBadge dispatch={e} />
            {props.label && <Text fw={500}>{props.label(e)}</Text>}
            {vpp && <Text c="dimmed">{vpp}</Text>}
            {showCreator && <Text c="dimmed">Created by {e.createdBy}</Text>}
          </Group>
          {props.children(e)}
        </Stack>
      )}
    </PageLayout>
  );
}
