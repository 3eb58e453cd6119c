import { Button, Card, Group, Select, Stack, Text, Title } from '@mantine/core';
import { ALERT_EMAIL_FREQUENCIES, type AlertEmailFrequency } from '@vpp/shared/constants';
import { useEffect, useState } from 'react';
import { useAccount } from '../../lib/account.ts';
import { toast } from '../../lib/toasts.ts';
import { useSaveAlertEmailFrequency } from './api.ts';

const LABELS: Record<AlertEmailFrequency, string> = { NEVER: 'Never', NOW: 'Immediately', HOURLY: 'Hourly', DAILY: 'Daily', WEEKLY: 'Weekly' };

/** How often node alerts are e-mailed: the five frequencies of spec 1 §9. */
export function NotificationsSection() {
  const { data: account } = useAccount();
  const save = useSaveAlertEmailFrequency();
  const [value, setValue] = useState<AlertEmailFrequency | null>(account?.alertEmailFrequency ?? null);
  useEffect(() => setValue(account?.alertEmailFrequency ?? null), [account?.alertEmailFrequency]);

  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Notifications
        </Title>
        <Select
          label="Alert email frequency"
          data={ALERT_EMAIL_FREQUENCIES.map((f) => ({ value: f, label: LABELS[f] }))}
          value={value}
          onChange={(v) => setValue(v as AlertEmailFrequency | null)}
          allowDeselect={false}
          maw={360}
        />
        {value === 'NEVER' && (
          <Text size="sm" c="dimmed">
            You will not receive any emails about Node alerts.
          </Text>
        )}
        <Group>
          <Button
            disabled={!value}
            loading={save.isPending}
            onClick={() => value && save.mutate(value, { onSuccess: () => toast('success', 'Settings successfully updated.') })}
          >
            Save
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
