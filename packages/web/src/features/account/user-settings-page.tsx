import { Button, Card, Group, Select, Stack, Text, Title } from '@mantine/core';
import { APP_VERSION, TIMEZONE_CHOICES } from '@vpp/shared/constants';
import { useEffect, useState } from 'react';
import { PageLayout } from '../../components/page-layout.tsx';
import { browserTimeZone, useAccount } from '../../lib/account.ts';
import { useGoBack } from '../../lib/routes.tsx';
import { useSession } from '../../lib/session.ts';
import { toast } from '../../lib/toasts.ts';
import { useMfaSettings, useSaveCodePreference } from './api.ts';
import { ApiKeysSection } from './api-keys-section.tsx';
import { NotificationsSection } from './notifications-section.tsx';
import { PasswordSection } from './password-section.tsx';
import { useSaveTimezone } from './save-timezone.ts';

/** User settings (spec 1 §2): time zone, notifications, password, API keys, two-factor when enabled, and the application version. */
export function UserSettingsPage() {
  const goBack = useGoBack('/');
  const { data: account } = useAccount();
  return (
    <PageLayout
      title="User Settings"
      actions={
        <Button variant="default" onClick={goBack}>
          Cancel
        </Button>
      }
    >
      <Stack gap="md" maw={720}>
        <TimezoneSection />
        <NotificationsSection />
        <PasswordSection />
        <ApiKeysSection />
        {account?.mfaEnabled && <MfaSection />}
        <Text size="sm" c="dimmed">
          Application version {APP_VERSION}
        </Text>
      </Stack>
    </PageLayout>
  );
}

function TimezoneSection() {
  const { data: account } = useAccount();
  const { timezoneMismatch } = useSession();
  const save = useSaveTimezone();
  const shown = timezoneMismatch ? browserTimeZone() : (account?.timezone ?? browserTimeZone());
  const [value, setValue] = useState<string | null>(shown);
  useEffect(() => setValue(shown), [shown]);
  const choices: { value: string; label: string }[] = [...TIMEZONE_CHOICES];
  if (value && !choices.some((c) => c.value === value)) choices.push({ value, label: value });

  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Timezone
        </Title>
        <Select label="Timezone" data={choices} value={value} onChange={setValue} allowDeselect={false} maw={360} />
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

function MfaSection() {
  const settings = useMfaSettings(true);
  const save = useSaveCodePreference();
  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Multi-Factor Authentication
        </Title>
        <Text size="sm">{settings.data?.confirmed ? 'Your authenticator app is set up.' : 'Your authenticator app is not yet set up.'}</Text>
        <Select
          label="Code preference"
          data={[{ value: 'APP', label: 'Authenticator app' }]}
          value={settings.data?.codePreference ?? 'APP'}
          allowDeselect={false}
          maw={360}
        />
        <Group>
          <Button variant="light" loading={save.isPending} onClick={() => save.mutate('APP')}>
            Save
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
