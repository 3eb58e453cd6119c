import { Group, Stack, Text } from '@mantine/core';
import { DISPATCH_MESSAGES } from '@vpp/shared/dispatches/messages';
import type { DispatchPriceReply } from '@vpp/shared/market/schemas';

const aud = new Intl.NumberFormat('en-AU', { style: 'currency', currency: 'AUD', minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** AUD with at most 2 decimals (spec 3 §9). */
export const formatAud = (v: number) => aud.format(v);

/**
 * The dispatch's prices (spec 3 §3.2): the cost of the requested energy (negative earns) and the
 * sell price, or the spec's warnings when they failed to load, or the server's reason when it has none.
 */
export function NewDispatchPrices(props: { data: DispatchPriceReply | undefined; failed: boolean; loading: boolean }) {
  const { data, failed, loading } = props;
  if (failed)
    return (
      <Stack gap={2} aria-label="Prices">
        <Text size="sm" c="yellow.8">
          {DISPATCH_MESSAGES.pricesFailed}
        </Text>
        <Text size="sm" c="yellow.8">
          {DISPATCH_MESSAGES.tradingPricesFailed}
        </Text>
      </Stack>
    );
  const value = (v: number | null | undefined, f: (n: number) => string) => (loading && !data ? '…' : v === null || v === undefined ? '–' : f(v));
  return (
    <Stack gap={2} aria-label="Prices">
      <Group gap="xl">
        <div>
          <Text size="xs" c="dimmed">
            Dispatch price
          </Text>
          <Text fw={600} aria-label="Dispatch price">
            {value(data?.dispatchPrice, formatAud)}
          </Text>
        </div>
        <div>
          <Text size="xs" c="dimmed">
            Trading price
          </Text>
          <Text fw={600} aria-label="Trading price">
            {value(data?.tradingPrice, (n) => `${formatAud(n)}/MWh`)}
          </Text>
        </div>
      </Group>
      {data?.reason && (
        <Text size="xs" c="dimmed">
          {data.reason}
        </Text>
      )}
      {data?.multipleRegions && (
        <Text size="xs" c="yellow.8">
          {DISPATCH_MESSAGES.multipleRegions}
        </Text>
      )}
    </Stack>
  );
}
