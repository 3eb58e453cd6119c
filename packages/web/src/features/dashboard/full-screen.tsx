import { Box, Button, Group, Text } from '@mantine/core';
import { FULLSCREEN_ROTATE_MS, WIDGET_NAMES, type Widget } from '@vpp/shared/dashboard/layout';
import { useEffect, useState } from 'react';
import { Ticker } from './ticker.tsx';
import { WidgetView } from './widgets/registry.tsx';

/** The widgets in the order full screen shows them: row by row, left to right. */
export function rotationOrder<W extends Widget>(widgets: readonly W[]): W[] {
  return [...widgets].sort((a, b) => a.layout.y - b.layout.y || a.layout.x - b.layout.x);
}

/**
 * Full screen (spec 2 §2, §4): one widget at a time over the whole window, the next one every
 * FULLSCREEN_ROTATE_MS, with Pause, Resume and Exit Full Screen (Escape too), and the ticker along
 * the bottom.
 */
export function FullScreen(props: { widgets: readonly (Widget & { key: string })[]; onExit: () => void }) {
  const widgets = rotationOrder(props.widgets);
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);
  const count = widgets.length;
  const { onExit } = props;

  useEffect(() => {
    if (paused || count < 2) return;
    const t = setInterval(() => setIndex((i) => (i + 1) % count), FULLSCREEN_ROTATE_MS);
    return () => clearInterval(t);
  }, [paused, count]);

  useEffect(() => {
    const key = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onExit();
    };
    window.addEventListener('keydown', key);
    return () => window.removeEventListener('keydown', key);
  }, [onExit]);

  const shown = widgets[index % Math.max(count, 1)];
  return (
    <Box
      pos="fixed"
      inset={0}
      bg="var(--mantine-color-body)"
      style={{ zIndex: 300, display: 'flex', flexDirection: 'column' }}
      role="dialog"
      aria-modal
      aria-label="Full screen dashboard"
      p="sm"
    >
      <Group justify="space-between" mb="xs" style={{ flex: 'none' }}>
        <Text size="sm" c="dimmed" aria-live="polite">
          {shown ? `${WIDGET_NAMES[shown.widgetId]}: ${index + 1} of ${count}` : 'No widgets'}
          {paused ? ' (paused)' : ''}
        </Text>
        <Group gap="xs">
          {paused ? (
            <Button variant="default" size="xs" onClick={() => setPaused(false)}>
              Resume
            </Button>
          ) : (
            <Button variant="default" size="xs" onClick={() => setPaused(true)}>
              Pause
            </Button>
          )}
          <Button size="xs" onClick={onExit}>
            Exit Full Screen
          </Button>
        </Group>
      </Group>
      <Box style={{ flex: 1, minHeight: 0 }}>{shown && <WidgetView key={shown.key} widget={shown} large />}</Box>
      <Ticker mt="xs" style={{ flex: 'none' }} />
    </Box>
  );
}
