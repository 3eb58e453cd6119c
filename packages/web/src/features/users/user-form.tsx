import { Alert, Button, Fieldset, Group, Loader, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { ADMINISTRATOR, normalizePermission } from '@vpp/shared/permissions/registry';
import { type OrgUser, USER_MESSAGES, type UserBody, userBody } from '@vpp/shared/users/schemas';
import { Link } from 'react-router';
import { useAccount } from '../../lib/account.ts';
import { useAvailablePermissions } from './api.ts';
import { groupByArea } from './permission-areas.ts';

/**
 * The user form: given name, surname, email and a toggle per permission the editor may grant.
 * Nobody may switch off their own administrator permission.
 */
export function UserForm(props: {
  user?: OrgUser;
  submitLabel: string;
  busy: boolean;
  serverError: string | null;
  /** Where Cancel leads: the user's page, or the list for a new user. */
  cancelTo: string;
  onSubmit: (values: UserBody) => void;
}) {
  const { data: account } = useAccount();
  const available = useAvailablePermissions();
  const form = useForm({
    initialValues: {
      givenName: props.user?.givenName ?? '',
      surname: props.user?.surname ?? '',
      email: props.user?.email ?? '',
      permissions: props.user?.permissions ?? [],
    },
    validate: schemaResolver(userBody, { sync: true }),
  });
  const isSelf = props.user !== undefined && props.user.id === account?.id;
  const held = new Set(form.values.permissions.map(normalizePermission));
  const toggle = (name: string, on: boolean) =>
    form.setFieldValue(
      'permissions',
      on ? [...form.values.permissions, name] : form.values.permissions.filter((p) => normalizePermission(p) !== normalizePermission(name)),
    );
  // Permissions the user holds that the editor may not grant stay as they are, listed apart.
  const grantable = new Set((available.data ?? []).map((p) => normalizePermission(p.name)));
  const others = form.values.permissions.filter((p) => !grantable.has(normalizePermission(p)));

  return (
    <form onSubmit={form.onSubmit((values) => props.onSubmit(values))} noValidate aria-label="User">
      <Stack gap="md" maw={720}>
        <Group grow align="flex-start">
          <TextInput label="Given name" {...form.getInputProps('givenName')} />
          <TextInput label="Surname" {...form.getInputProps('surname')} />
        </Group>
        <TextInput label="Email" type="email" {...form.getInputProps('email')} />
        <Title order={2} size="h4">
          Permissions
        </Title>
        {available.isPending && <Loader size="sm" aria-label="Loading permissions" />}
        {/* Grouped by the area each opens (Account, Fleet, Virtual Power Plants, Dispatch, Customers, Billing…). */}
        {groupByArea(available.data ?? []).map((g) => (
          <Fieldset key={g.area} legend={g.area} variant="unstyled">
            <Stack gap="xs">
              {g.permissions.map((p) => {
                const lockedOn =
                  isSelf && normalizePermission(p.name) === ADMINISTRATOR && props.user?.permissions.some((x) => normalizePermission(x) === ADMINISTRATOR);
                return (
                  <Switch
                    key={p.name}
                    label={p.displayName}
                    description={lockedOn ? USER_MESSAGES.selfAdministrator : `${p.description} (${p.name})`}
                    checked={held.has(normalizePermission(p.name))}
                    disabled={lockedOn}
                    onChange={(e) => toggle(p.name, e.currentTarget.checked)}
                  />
                );
              })}
            </Stack>
          </Fieldset>
        ))}
        {others.length > 0 && (
          <Text size="sm" c="dimmed">
            Also holds, and only someone who holds them can change: {others.join(', ')}
          </Text>
        )}
        {props.serverError && (
          <Alert color="red" role="alert">
            {props.serverError}
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={props.busy}>
            {props.submitLabel}
          </Button>
          <Button component={Link} to={props.cancelTo} variant="default">
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
