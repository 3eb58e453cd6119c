import { Stack, Text, Title } from '@mantine/core';
import { useAccount } from '../../../lib/account.ts';

const ORG_WORDS = { RETAILER: 'retailer', NETWORK: 'network operator', INSTALLER: 'installer' } as const;

export function WelcomeBody() {
  const { data: account } = useAccount();
  return (
    <Stack gap="xs">
      <Title order={3} size="h4">
        Welcome, {account?.givenName}
      </Title>
      <Text size="sm">
        You are signed in to {account?.suborg_name}, a {account ? ORG_WORDS[account.suborg_type] : ''} account. From here you watch your fleet of home solar and
        battery systems, group them into virtual power plants and put them to work.
      </Text>
      <Text size="sm" c="dimmed">
        Add Widget puts live figures, maps and graphs of your fleet here; drag a widget by its title and resize it from its corner.
      </Text>
    </Stack>
  );
}
