import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { USER_MESSAGES, type UserBody } from '@vpp/shared/users/schemas';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { PageLayout } from '../../components/page-layout.tsx';
import { ApiError } from '../../lib/request.ts';
import { toast } from '../../lib/toasts.ts';
import { useCreateUser } from './api.ts';
import { UserForm } from './user-form.tsx';
import { USERS_BREADCRUMB, USERS_PERMISSION } from './user-list-page.tsx';

/** /my-reposit/users/new: the form, then a confirmation that an e-mail will be sent. */
export function UserCreatePage() {
  const navigate = useNavigate();
  const create = useCreateUser();
  const [pending, setPending] = useState<UserBody | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);

  const confirm = () => {
    if (!pending) return;
    create.mutate(pending, {
      onSuccess: (user) => {
        toast('success', USER_MESSAGES.createdTitle, `${user.givenName} ${user.surname} has been created and emailed a link to choose a password.`);
        navigate(`/my-reposit/users/${user.id}`);
      },
      onError: (err) => {
        if (err instanceof ApiError && err.status !== 401 && err.status !== 403) setServerError(err.message);
      },
      onSettled: () => setPending(null),
    });
  };

  return (
    <PageLayout title="New User" breadcrumb={[...USERS_BREADCRUMB, { label: 'New User' }]} permission={USERS_PERMISSION}>
      <UserForm
        submitLabel="Create User"
        cancelTo={USERS_BREADCRUMB[1].to as string}
        busy={create.isPending}
        serverError={serverError}
        onSubmit={(values) => {
          setServerError(null);
          setPending(values);
        }}
      />
      <Modal opened={pending !== null} onClose={() => setPending(null)} title="Create user">
        <Stack gap="md">
          <Text size="sm">{USER_MESSAGES.createConfirm.replace('{email}', pending?.email ?? '')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setPending(null)}>
              Cancel
            </Button>
            <Button onClick={confirm} loading={create.isPending}>
              Create and Send Email
            </Button>
          </Group>
        </Stack>
      </Modal>
    </PageLayout>
  );
}
