import { Alert } from '@mantine/core';
import { outrankedUserMessage, outrankingPermission, USER_MESSAGES } from '@vpp/shared/users/schemas';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { LoadingSkeleton } from '../../components/loading-skeleton.tsx';
import { NotFound } from '../../components/not-found.tsx';
import { PageLayout } from '../../components/page-layout.tsx';
import { useAccount } from '../../lib/account.ts';
import { ApiError } from '../../lib/request.ts';
import { toast } from '../../lib/toasts.ts';
import { USER_NOT_FOUND, userMissing, useUpdateUser, useUser } from './api.ts';
import { UserForm } from './user-form.tsx';
import { USERS_BREADCRUMB, USERS_PERMISSION } from './user-list-page.tsx';

/** /my-reposit/users/{id}/edit. */
export function UserEditPage() {
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const user = useUser(id);
  const account = useAccount().data;
  const update = useUpdateUser(id);
  const [serverError, setServerError] = useState<string | null>(null);
  const name = user.data ? `${user.data.givenName} ${user.data.surname}` : 'User';
  const outranking = account && user.data ? outrankingPermission(account, user.data) : undefined;

  return (
    <PageLayout
      title={`Edit ${name}`}
      breadcrumb={[...USERS_BREADCRUMB, { label: name, to: `/my-reposit/users/${id}` }, { label: 'Edit' }]}
      permission={USERS_PERMISSION}
    >
      {userMissing(id, user) && <NotFound text={USER_NOT_FOUND} listPath={USERS_BREADCRUMB[1].to as string} backLabel="Back to Users" />}
      {user.isPending && !userMissing(id, user) && <LoadingSkeleton variant="lines" />}
      {outranking && (
        <Alert color="red" maw={720}>
          {outrankedUserMessage(outranking)}
        </Alert>
      )}
      {user.data && account && !outranking && (
        <UserForm
          user={user.data}
          submitLabel="Save"
          cancelTo={`/my-reposit/users/${id}`}
          busy={update.isPending}
          serverError={serverError}
          onSubmit={(values) => {
            setServerError(null);
            update.mutate(values, {
              onSuccess: (u) => {
                toast('success', USER_MESSAGES.updatedTitle, `${u.givenName} ${u.surname} has been updated.`);
                navigate(`/my-reposit/users/${id}`);
              },
              onError: (err) => {
                if (err instanceof ApiError && err.status !== 401 && err.status !== 403) setServerError(err.message);
              },
            });
          }}
        />
      )}
    </PageLayout>
  );
}
