import { Box, Group, Skeleton, Stack } from '@mantine/core';

/**
 * What a screen shows while its data loads (issue 10 item 7): grey shapes where the content will be,
 * so that loading never reads as 'no data' (a blank page, or a chart's empty axes). One component
 * for every screen:
 * - `page`: a detail page (a header line, two lines of facts, a tab bar and a block);
 * - `chart`: a chart's plot area of `height`, with its legend line;
 * - `table`: `rows` table rows under a header row;
 * - `lines`: a few lines of text (a panel's facts).
 * It is announced once to screen readers as busy with `label` (default 'Loading').
 */
export function LoadingSkeleton({
  variant = 'page',
  height = 320,
  rows = 5,
  label = 'Loading',
}: {
  variant?: 'page' | 'chart' | 'table' | 'lines';
  height?: number;
  rows?: number;
  label?: string;
}) {
  return (
    <Box role="status" aria-busy="true" aria-label={label} data-skeleton={variant}>
      {variant === 'page' && (
        <Stack gap="md">
          <Group gap="md">
            <Skeleton h={28} w={180} radius="sm" />
            <Skeleton h={22} w={90} radius="xl" />
          </Group>
          <Skeleton h={14} w="60%" radius="sm" />
          <Skeleton h={14} w="40%" radius="sm" />
          <Group gap="lg" mt="sm">
            {[110, 150, 90, 100].map((w) => (
              <Skeleton key={w} h={18} w={w} radius="sm" />
            ))}
          </Group>
          <Skeleton h={height} radius="md" />
        </Stack>
      )}
      {variant === 'chart' && (
        <Stack gap="xs">
          <Skeleton h={height} radius="md" />
          <Group gap="md" justify="center">
            {[70, 90, 80].map((w) => (
              <Skeleton key={w} h={12} w={w} radius="sm" />
            ))}
          </Group>
        </Stack>
      )}
      {variant === 'table' && (
        <Stack gap={10} py="xs">
          <Skeleton h={20} radius="sm" />
          {Array.from({ length: rows }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have nothing but their place
            <Skeleton key={i} h={16} w={i % 2 ? '92%' : '100%'} radius="sm" />
          ))}
        </Stack>
      )}
      {variant === 'lines' && (
        <Stack gap={8}>
          {Array.from({ length: rows }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholder lines have nothing but their place
            <Skeleton key={i} h={14} w={`${90 - ((i * 17) % 40)}%`} radius="sm" />
          ))}
        </Stack>
      )}
    </Box>
  );
}
