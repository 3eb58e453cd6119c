import { Alert, Button, Card, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { normalizePermission, PERMISSIONS } from '@vpp/shared/permissions/registry';
import { outrankedUserMessage, outrankingPermission } from '@vpp/shared/users/schemas';
import { Link, useParams } from 'react-router';
import { LoadingSkeleton } from '../../components/loading-skeleton.tsx';
import { NotFound } from '../../components/not-found.tsx';
import { PageLayout } from '../../components/page-layout.tsx';
import { useAccount } from '../../lib/account.ts';
import { USER_NOT_FOUND, userMissing, useUser } from './api.ts';
import { USERS_BREADCRUMB, USERS_PERMISSION } from './user-list-page.tsx';

const label = (name: string) => PERMISSIONS.find((p) => normalizePermission(p.name) === normalizePermission(name))?.displayName ?? name;

/** /my-reposit/users/{id}: who the user is and what they may do. */
export function UserDetailPage() {
  const id = Number(useParams().id);
  const user = useUser(id);
  const account = useAccount().data;
  const name = user.data ? `${user.data.givenName} ${user.data.surname}` : 'User';
  const outranking = account && user.data ? outrankingPermission(account, user.data) : undefined;
  return (
    <PageLayout
      title={name}
      breadcrumb={[...USERS_BREADCRUMB, { label: name }]}
      permission={USERS_PERMISSION}
      actions={
        user.data &&
        account &&
        !outranking && (
          <Button component={Link} to={`/my-reposit/users/${id}/edit`}>
            Edit
          </Button>
        )
      }
    >
      {userMissing(id, user) && <NotFound text={USER_NOT_FOUND} listPath={USERS_BREADCRUMB[1].to as string} backLabel="Back to Users" />}
      {user.isPending && !userMissing(id, user) && <LoadingSkeleton variant="lines" />}
      {outranking && (
        <Alert color="gray" mb="md" maw={720}>
          {outrankedUserMessage(outranking)}
        </Alert>
      )}
      {user.data && (
        <Card withBorder padding="lg" maw={720}>
          <Stack gap="md">
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <Field label="Given name" value={user.data.givenName} />
              <Field label="Surname" value={user.data.surname} />
              <Field label="Email" value={user.data.email} />
            </SimpleGrid>
            <Title order={2} size="h4">
              Permissions
            </Title>
            {user.data.permissions.length === 0 ? (
              <Text c="dimmed">No permissions.</Text>
            ) : (
              <List size="sm" aria-label="Permissions">
                {user.data.permissions.map((p) => (
                  <List.Item key={p}>
                    {label(p)}{' '}
                    <Text span c="dimmed" size="xs">
                      ({p})
                    </Text>
                  </List.Item>
                ))}
              </List>
            )}
          </Stack>
        </Card>
      )}
    </PageLayout>
  );
}

function Field({ label: l, value }: { label: string; value: string }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed">
        {l}
      </Text>
      <Text>{value}</Text>
    </Stack>
  );
}
