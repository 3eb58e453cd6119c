import { Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { PageLayout } from '../../components/page-layout.tsx';
import { useAccount } from '../../lib/account.ts';

const ORG_WORDS = { RETAILER: 'retailer', NETWORK: 'network operator', INSTALLER: 'installer' } as const;

/** The default dashboard of spec 2 §4: with no saved dashboard, a Welcome widget. */
export function DashboardPage() {
  const { data: account } = useAccount();
  return (
    <PageLayout title="Dashboard">
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder shadow="sm" padding="lg" radius="md" aria-label="Welcome">
          <Stack gap="xs">
            <Title order={2} size="h3">
              Welcome, {account?.givenName}
            </Title>
            <Text>
              You are signed in to {account?.suborg_name}, a {account ? ORG_WORDS[account.suborg_type] : ''} account. From here you watch your fleet of home
              solar and battery systems, group them into virtual power plants and put them to work.
            </Text>
            <Text size="sm" c="dimmed">
              The areas your permissions open are in the sidebar.
            </Text>
          </Stack>
        </Card>
      </SimpleGrid>
    </PageLayout>
  );
}
