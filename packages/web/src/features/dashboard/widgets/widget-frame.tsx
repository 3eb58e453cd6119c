import { ActionIcon, Alert, Box, Card, Center, Group, Loader, Popover, Stack, Text, Tooltip } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { IconAlertTriangle, IconSettings, IconX } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { ApiError } from '../../../lib/request.ts';
import { useSeen } from '../../../lib/use-seen.ts';

/** The widget statuses of spec 2 §4. */
export type WidgetStatus = 'LOADING' | 'ERROR' | null;

/** The class of the part of a widget that drags it (its header), and of what inside it does not. */
export const DRAG_HANDLE = 'dashboard-widget-handle';
export const NO_DRAG = 'dashboard-widget-nodrag';

/** Spec 2 §8: "Error" with "Something went wrong", or the message the failure supplies. */
export function widgetErrorMessage(err: unknown): string {
  if (err instanceof ApiError && (err.status === 0 || (err.status >= 400 && err.status < 500)) && err.message) return err.message;
  return 'Something went wrong';
}

export function WidgetLoading() {
  return (
    <Center h="100%" mih={80}>
      <Stack align="center" gap={4}>
        <Loader size="sm" aria-hidden />
        <Text size="sm" c="dimmed" role="status">
          Loading...
        </Text>
      </Stack>
    </Center>
  );
}

export function WidgetError(props: { message: string }) {
  return (
    <Center h="100%" p="xs">
      <Alert color="red" variant="light" title="Error" icon={<IconAlertTriangle size={18} />} role="alert" w="100%">
        {props.message}
      </Alert>
    </Center>
  );
}

/** How near the window a widget below it must come before it loads: about a row of widgets ahead of the scroll. */
export const LOAD_AHEAD_PX = 300;

/**
 * A widget's card: its title (the drag handle on the grid), an optional subtitle, the settings and
 * remove buttons when editing, and its body, given its measured height. The body (and so its
 * requests) waits until the card comes near the window (issue 30): a widget scrolled to loads then,
 * and shows Loading... until it does.
 */
export function WidgetFrame(props: {
  title: string;
  subtitle?: string;
  settings?: ReactNode;
  onRemove?: () => void;
  children: (height: number) => ReactNode;
  /** Full screen: a larger title and no card border. */
  large?: boolean;
}) {
  const { ref, height } = useElementSize();
  const [seenRef, seen] = useSeen(LOAD_AHEAD_PX);
  return (
    <Card
      ref={seenRef}
      withBorder={!props.large}
      shadow={props.large ? undefined : 'sm'}
      radius="md"
      padding="sm"
      h="100%"
      role="region"
      aria-label={props.title}
      style={{ display: 'flex', flexDirection: 'column' }}
    >
      <Group justify="space-between" wrap="nowrap" gap="xs" className={DRAG_HANDLE} style={{ cursor: props.onRemove ? 'move' : undefined, flex: 'none' }}>
        <Box miw={0}>
          <Text fw={600} size={props.large ? 'xl' : 'md'} truncate="end" component="h2" m={0}>
            {props.title}
          </Text>
          {props.subtitle && (
            <Text size="xs" c="dimmed" truncate="end">
              {props.subtitle}
            </Text>
          )}
        </Box>
        <Group gap={4} wrap="nowrap" className={NO_DRAG}>
          {props.settings && (
            <Popover position="bottom-end" shadow="md" width={280} withinPortal trapFocus>
              <Popover.Target>
                <Tooltip label="Widget settings">
                  <ActionIcon variant="subtle" color="gray" aria-label={`${props.title} settings`}>
                    <IconSettings size={18} />
                  </ActionIcon>
                </Tooltip>
              </Popover.Target>
              <Popover.Dropdown className={NO_DRAG}>{props.settings}</Popover.Dropdown>
            </Popover>
          )}
          {props.onRemove && (
            <Tooltip label="Remove widget">
              <ActionIcon variant="subtle" color="gray" aria-label={`Remove ${props.title}`} onClick={props.onRemove}>
                <IconX size={18} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      </Group>
      <Box ref={ref} mt="xs" style={{ flex: 1, minHeight: 0, position: 'relative', overflow: 'auto' }} className={NO_DRAG}>
        {seen ? props.children(height) : <WidgetLoading />}
      </Box>
    </Card>
  );
}
