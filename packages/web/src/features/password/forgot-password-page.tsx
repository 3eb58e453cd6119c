import { Alert, Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useDocumentTitle } from '@mantine/hooks';
import { forgotPasswordBody, PASSWORD_MESSAGES } from '@vpp/shared/account/password-schemas';
import { APP_TITLE } from '@vpp/shared/constants';
import { Link } from 'react-router';
import { ApiError } from '../../lib/request.ts';
import { useRequestReset } from './api.ts';

/** /password/forgot: an e-mail address, 'Send Password Reset', and 'Back to Login'. */
export function ForgotPasswordPage() {
  useDocumentTitle(`Forgot Password | ${APP_TITLE}`);
  const send = useRequestReset();
  const form = useForm({ initialValues: { email: '' }, validate: schemaResolver(forgotPasswordBody, { sync: true }) });

  return (
    <form onSubmit={form.onSubmit((values) => send.mutate(values))} aria-label="Forgot password" noValidate>
      <Stack gap="sm">
        <Title order={2} size="h3">
          Forgot your password?
        </Title>
        {send.isSuccess ? (
          <Alert color="teal">{send.data.message}</Alert>
        ) : (
          <>
            <Text size="sm">Enter the email address of your account and we will email you a link to choose a new password.</Text>
            {send.isError && <Alert color="red">{failureText(send.error)}</Alert>}
            <TextInput label="Email" type="email" autoComplete="email" {...form.getInputProps('email')} />
            <Button type="submit" loading={send.isPending}>
              Send Password Reset
            </Button>
          </>
        )}
        <Anchor component={Link} to="/" size="sm">
          Back to Login
        </Anchor>
      </Stack>
    </form>
  );
}

/**
 * The server's own message when it refused the request and said why (an ERROR reply below 500),
 * otherwise the spec's failure text: a server failure's wording ("Internal Server Error") tells the
 * user nothing they can act on.
 */
export function failureText(err: Error): string {
  const replied = err instanceof ApiError && err.status >= 400 && err.status < 500 && (err.body as { status?: string } | null)?.status === 'ERROR';
  return replied ? err.message : PASSWORD_MESSAGES.resetRequestFailed;
}
