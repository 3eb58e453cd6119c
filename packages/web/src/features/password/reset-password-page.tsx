import { Alert, Anchor, Button, Center, Loader, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useDocumentTitle } from '@mantine/hooks';
import { changePasswordBody, PASSWORD_MESSAGES } from '@vpp/shared/account/password-schemas';
import { APP_TITLE } from '@vpp/shared/constants';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PasswordRequirements } from '../../components/password-requirements.tsx';
import { ApiError } from '../../lib/request.ts';
import { useChangePassword, useResetToken, useVerifyToken } from './api.ts';
import { failureText } from './forgot-password-page.tsx';

/** The password reset states of spec 1 §3. */
export type ResetStatus = 'FETCHING' | 'OK' | 'ERROR' | 'PASSWORD_RESET' | 'CHANGING' | 'FAILED';

/** /password/reset?token=: verify the link, then the new password and its confirmation. */
export function ResetPasswordPage() {
  const token = useResetToken();
  const verify = useVerifyToken(token);
  // A new user's link sets a first password (spec 1 §1: every page its own title).
  const first = verify.data?.purpose === 'welcome';
  useDocumentTitle(`${first ? 'Set Password' : 'Reset Password'} | ${APP_TITLE}`);
  const change = useChangePassword(token);
  const form = useForm({ initialValues: { password: '', confirmPassword: '' }, validate: schemaResolver(changePasswordBody, { sync: true }) });

  const linkDead = change.error instanceof ApiError && change.error.code === 'invalid_token';
  const tokenValid = token !== '' && verify.data?.valid === true && !linkDead;
  const status: ResetStatus = change.isSuccess
    ? 'PASSWORD_RESET'
    : change.isPending
      ? 'CHANGING'
      : change.isError
        ? 'FAILED'
        : token && verify.isPending
          ? 'FETCHING'
          : verify.isError
            ? 'ERROR'
            : 'OK';

  let body: ReactNode;
  if (status === 'FETCHING') {
    body = (
      <Center py="lg">
        <Loader aria-label="Checking the link" />
      </Center>
    );
  } else if (status === 'PASSWORD_RESET') {
    body = <Alert color="teal">{PASSWORD_MESSAGES.passwordReset}</Alert>;
  } else if (status === 'ERROR') {
    body = <Alert color="red">{failureText(verify.error as Error)}</Alert>;
  } else if (!tokenValid) {
    body = (
      <Alert color="red">
        Your reset password link is no longer valid. You may request a new password reset by visiting the{' '}
        {/* In the alert's own colour, underlined: the blue on the red tint read at under 4.5:1. */}
        <Anchor component={Link} to="/password/forgot" inherit c="inherit" underline="always" fw={600}>
          Forgot Password
        </Anchor>{' '}
        form.
      </Alert>
    );
  } else {
    body = (
      <form onSubmit={form.onSubmit((values) => change.mutate(values))} aria-label="Reset password" noValidate>
        <Stack gap="sm">
          <Text size="sm">{first ? 'Choose a password for your new account.' : 'Choose a new password for your account.'}</Text>
          {status === 'FAILED' && <Alert color="red">{failureText(change.error as Error)}</Alert>}
          <PasswordInput label="New password" autoComplete="new-password" {...form.getInputProps('password')} />
          <PasswordRequirements password={form.values.password} />
          <PasswordInput label="Confirm new password" autoComplete="new-password" {...form.getInputProps('confirmPassword')} />
          <Button type="submit" loading={status === 'CHANGING'}>
            Reset Password
          </Button>
        </Stack>
      </form>
    );
  }

  return (
    <Stack gap="sm">
      <Title order={2} size="h3">
        {first ? 'Set your password' : 'Reset your password'}
      </Title>
      {body}
      <Anchor component={Link} to="/" size="sm">
        Back to Login
      </Anchor>
    </Stack>
  );
}
