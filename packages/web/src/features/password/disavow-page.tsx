import { Alert, Anchor, Center, Loader, Stack, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { PASSWORD_MESSAGES } from '@vpp/shared/account/password-schemas';
import { APP_TITLE } from '@vpp/shared/constants';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../lib/request.ts';
import { useDisavow, useResetToken } from './api.ts';
import { failureText } from './forgot-password-page.tsx';

/** /password/reset/disavow?token=: 'this was not me' from the e-mail: the link is deactivated and support told. */
export function DisavowPage() {
  useDocumentTitle(`Password Reset Deactivated | ${APP_TITLE}`);
  const token = useResetToken();
  const disavow = useDisavow(token);
  const { mutate } = disavow;
  useEffect(() => {
    if (token) mutate();
  }, [token, mutate]);

  const invalid = !token || (disavow.error instanceof ApiError && disavow.error.code === 'invalid_token');
  return (
    <Stack gap="sm">
      <Title order={2} size="h3">
        Password reset deactivated
      </Title>
      {disavow.isSuccess && <Alert color="teal">{PASSWORD_MESSAGES.disavowed}</Alert>}
      {invalid && <Alert color="red">{PASSWORD_MESSAGES.linkInvalid}</Alert>}
      {disavow.isError && !invalid && <Alert color="red">{failureText(disavow.error)}</Alert>}
      {disavow.isPending && (
        <Center py="lg">
          <Loader aria-label="Deactivating the link" />
        </Center>
      )}
      <Anchor component={Link} to="/" size="sm">
        Back to Login
      </Anchor>
    </Stack>
  );
}
