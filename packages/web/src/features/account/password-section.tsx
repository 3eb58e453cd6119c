import { Button, Card, Group, PasswordInput, Stack, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { inlineChangeBody, PASSWORD_MESSAGES } from '@vpp/shared/account/password-schemas';
import { PasswordRequirements } from '../../components/password-requirements.tsx';
import { ApiError } from '../../lib/request.ts';
import { toast } from '../../lib/toasts.ts';
import { useInlineChangePassword } from './api.ts';

/** Inline change of password: the server's refusal shows on the confirmation field (spec 1 §5, §8). */
export function PasswordSection() {
  const change = useInlineChangePassword();
  const form = useForm({
    initialValues: { oldPassword: '', newPassword: '', passwordConfirmation: '' },
    validate: schemaResolver(inlineChangeBody, { sync: true }),
  });

  const submit = form.onSubmit((values) =>
    change.mutate(values, {
      onSuccess: () => {
        toast('success', PASSWORD_MESSAGES.changedTitle, PASSWORD_MESSAGES.changed);
        form.reset();
      },
      onError: (err) => {
        if (err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 401 && err.status !== 403) {
          form.setFieldError('passwordConfirmation', err.code === 'incorrect_password' ? PASSWORD_MESSAGES.currentIncorrect : err.message);
        } else if (!(err instanceof ApiError && (err.status === 401 || err.status === 403))) {
          toast('error', PASSWORD_MESSAGES.changeFailedTitle, PASSWORD_MESSAGES.changeFailed);
        }
      },
    }),
  );

  return (
    <Card withBorder padding="lg">
      <form onSubmit={submit} aria-label="Change password" noValidate>
        <Stack gap="sm" maw={420}>
          <Title order={2} size="h4">
            Password
          </Title>
          <PasswordInput label="Current password" autoComplete="current-password" {...form.getInputProps('oldPassword')} />
          <PasswordInput label="New password" autoComplete="new-password" {...form.getInputProps('newPassword')} />
          <PasswordRequirements password={form.values.newPassword} />
          <PasswordInput label="Confirm new password" autoComplete="new-password" {...form.getInputProps('passwordConfirmation')} />
          <Group>
            <Button type="submit" loading={change.isPending}>
              Change Password
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
