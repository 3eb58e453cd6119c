import {
  Alert,
  Badge,
  Button,
  Card,
  Code,
  CopyButton,
  Group,
  Modal,
  MultiSelect,
  PasswordInput,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { API_KEY_MESSAGES, type ApiKey, findBadAllowEntry, ipParseFailure, splitAllowList } from '@vpp/shared/account/api-keys';
import { OPENADR_SCOPES, type OpenadrScope } from '@vpp/shared/openadr/schemas';
import { ADMINISTRATOR, canGrant, PERMISSIONS, READ_ONLY_PERMISSIONS } from '@vpp/shared/permissions/registry';
import { useMemo, useState } from 'react';
import { useAccount } from '../../lib/account.ts';
import { ApiError } from '../../lib/request.ts';
import { toast } from '../../lib/toasts.ts';
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from './api.ts';

const STATUS_COLOR: Record<ApiKey['status'], string> = { VALID: 'teal', REVOKING: 'yellow', REVOKED: 'gray' };

const DISPLAY_NAME = new Map<string, string>(PERMISSIONS.map((p) => [p.name, p.displayName]));

const READ_ONLY = new Set<string>(READ_ONLY_PERMISSIONS);
const SHOWN_SCOPES = 3;

/**
 * A key's scopes as the list shows them: whether it can change anything, then the first few by label
 * (those that change things first, the name on hover) and the rest behind '+N more'.
 */
function Scopes({ scopes }: { scopes: readonly string[] }) {
  if (!scopes.length) return <Text c="dimmed">None</Text>;
  const writes = scopes.filter((s) => !READ_ONLY.has(s));
  const ordered = [...writes, ...scopes.filter((s) => READ_ONLY.has(s))];
  const rest = ordered.slice(SHOWN_SCOPES);
  return (
    <Stack gap={4}>
      <Text size="xs" c="dimmed">
        {writes.length
          ? `${writes.length} of ${scopes.length} change things`
          : `Read-only, ${scopes.length} ${scopes.length === 1 ? 'permission' : 'permissions'}`}
      </Text>
      <Group gap={4}>
        {ordered.slice(0, SHOWN_SCOPES).map((s) => (
          <Badge key={s} variant="outline" color={READ_ONLY.has(s) ? 'gray' : 'orange'} size="sm" title={s} tt="none">
            {DISPLAY_NAME.get(s) ?? s}
          </Badge>
        ))}
        {rest.length > 0 && (
          <Tooltip multiline w={280} label={rest.map((s) => DISPLAY_NAME.get(s) ?? s).join(', ')}>
            <Badge
              variant="outline"
              color="gray"
              size="sm"
              tt="none"
              tabIndex={0}
              aria-label={`${rest.length} more: ${rest.map((s) => DISPLAY_NAME.get(s) ?? s).join(', ')}`}
            >
              +{rest.length} more
            </Badge>
          </Tooltip>
        )}
      </Group>
    </Stack>
  );
}

/** API keys: list, add (name, allowed addresses, password) and revoke (password). */
export function ApiKeysSection() {
  const { data: account } = useAccount();
  const keys = useApiKeys();
  const [adding, setAdding] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const when = new Intl.DateTimeFormat('en-AU', { timeZone: account?.timezone ?? undefined, dateStyle: 'medium', timeStyle: 'short' });

  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            API Keys
          </Title>
          <Button variant="light" onClick={() => setAdding(true)}>
            Add API Key
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          A key calls the API as you, in an X-API-Key header or as a bearer token, with the scopes you give it: those of your permissions it needs (read-only
          unless you choose more). It cannot manage users, keys, passwords or two-factor authentication.
        </Text>
        {keys.data?.length === 0 && <Text size="sm">You have no API keys.</Text>}
        {!!keys.data?.length && (
          <Table striped withTableBorder aria-label="API keys">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Allowed addresses</Table.Th>
                <Table.Th>Scopes</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {keys.data.map((k) => (
                <Table.Tr key={k.keyId}>
                  <Table.Td>{k.keyName}</Table.Td>
                  <Table.Td>{k.ipWhitelist.length ? k.ipWhitelist.join(' ') : <Text c="dimmed">All addresses</Text>}</Table.Td>
                  <Table.Td>
                    <Scopes scopes={k.scopes} />
                    {k.openadrScopes.length > 0 && (
                      <Text size="xs" c="dimmed">
                        OpenADR: {k.openadrScopes.join(', ')}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    <Badge color={STATUS_COLOR[k.status]} variant="light" miw="max-content">
                      {k.status}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{when.format(k.createdAt * 1000)}</Table.Td>
                  <Table.Td ta="right">
                    {k.status === 'VALID' && (
                      <Button size="xs" color="red" variant="subtle" onClick={() => setRevoking(k)}>
                        Revoke
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
      {/* Mounted when opened, so that the form starts from the account's permissions as they are then. */}
      {adding && <AddKeyModal opened onClose={() => setAdding(false)} />}
      <RevokeKeyModal apiKey={revoking} onClose={() => setRevoking(null)} />
    </Card>
  );
}

/** The new key, shown once, with Copy and Done. */
function NewKeySecret({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <Stack gap="sm">
      <Alert color="teal">This is the only time the key is shown. Keep it somewhere safe: we store only a fingerprint of it.</Alert>
      <Code block aria-label="New API key">
        {secret}
      </Code>
      <Group justify="flex-end">
        <CopyButton value={secret}>
          {({ copied, copy }) => (
            <Button variant="light" onClick={copy}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
        <Button onClick={onDone}>Done</Button>
      </Group>
    </Stack>
  );
}

function AddKeyModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const create = useCreateApiKey();
  const { data: account } = useAccount();
  const [secret, setSecret] = useState<string | null>(null);
  // A key may be given only what its owner holds; it starts read-only (the view permissions held).
  const held = account?.permissions;
  const scopeOptions = useMemo(() => PERMISSIONS.filter((p) => held && canGrant(held, p.name)).map((p) => ({ value: p.name, label: p.displayName })), [held]);
  const readOnly = useMemo(() => READ_ONLY_PERMISSIONS.filter((p) => held && canGrant(held, p)), [held]);
  const form = useForm({
    initialValues: { keyName: '', ipWhitelist: '', scopes: readOnly, openadrScopes: [] as OpenadrScope[], password: '' },
    validate: {
      keyName: (v) => (v.trim() ? null : API_KEY_MESSAGES.nameRequired),
      ipWhitelist: (v) => {
        const bad = findBadAllowEntry(splitAllowList(v));
        return bad === null ? null : ipParseFailure(bad);
      },
      password: (v) => (v ? null : API_KEY_MESSAGES.passwordRequired),
    },
  });
  const close = () => {
    form.reset();
    create.reset();
    setSecret(null);
    onClose();
  };

  const submit = form.onSubmit((values) =>
    create.mutate(values, {
      onSuccess: async (key) => {
        setSecret(key.key);
        try {
          await navigator.clipboard.writeText(key.key);
          toast('success', API_KEY_MESSAGES.copiedTitle, API_KEY_MESSAGES.copied);
        } catch {
          toast('info', 'Copy your new API key', 'It is shown once: copy it from the dialog now.');
        }
      },
      onError: (err) => {
        if (!(err instanceof ApiError)) return;
        if (err.code === 'password_rejected') form.setFieldError('password', API_KEY_MESSAGES.passwordRejected);
        else if (err.code === 'ip_parse_failure') form.setFieldError('ipWhitelist', err.message);
        else if (err.code === 'scope_not_held' || err.code === 'unknown_permission') form.setFieldError('scopes', err.message);
        else if (err.status !== 401 && err.status !== 403) form.setFieldError('keyName', err.message);
      },
    }),
  );

  return (
    <Modal opened={opened} onClose={close} title="Add API Key" size="lg">
      {secret ? (
        <NewKeySecret secret={secret} onDone={close} />
      ) : (
        <form onSubmit={submit} aria-label="Add API key" noValidate>
          <Stack gap="sm">
            <TextInput label="Name" data-autofocus {...form.getInputProps('keyName')} />
            <Textarea
              label="IP whitelist"
              description="Addresses allowed to use the key, separated by spaces or new lines: single IPs, CIDR ranges or IPv4 addresses with a subnet mask. Leave blank to allow all."
              autosize
              minRows={2}
              {...form.getInputProps('ipWhitelist')}
            />
            <MultiSelect
              id="api-key-scopes"
              label={API_KEY_MESSAGES.scopesLabel}
              description={API_KEY_MESSAGES.scopesDescription}
              data={scopeOptions}
              searchable
              clearable
              hidePickedOptions
              {...form.getInputProps('scopes')}
            />
            {held?.includes(ADMINISTRATOR) && (
              <MultiSelect
                id="api-key-openadr-scopes"
                label="OpenADR scopes"
                description="For an OpenADR 3 client of this console's VTN (a VEN or a business system): the key's id is its client_id and the key its client_secret."
                data={[...OPENADR_SCOPES]}
                clearable
                hidePickedOptions
                {...form.getInputProps('openadrScopes')}
              />
            )}
            <PasswordInput label="Your password" autoComplete="current-password" {...form.getInputProps('password')} />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={create.isPending}>
                Create Key
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

function RevokeKeyModal({ apiKey, onClose }: { apiKey: ApiKey | null; onClose: () => void }) {
  const revoke = useRevokeApiKey();
  const form = useForm({ initialValues: { password: '' }, validate: { password: (v) => (v ? null : API_KEY_MESSAGES.passwordRequired) } });
  const close = () => {
    form.reset();
    onClose();
  };
  const submit = form.onSubmit(({ password }) => {
    if (!apiKey) return;
    revoke.mutate(
      { keyId: apiKey.keyId, password },
      {
        onSuccess: close,
        onError: (err) => {
          if (err instanceof ApiError && err.code === 'password_rejected') form.setFieldError('password', API_KEY_MESSAGES.passwordRejected);
          else if (err instanceof ApiError && err.status !== 401 && err.status !== 403) form.setFieldError('password', err.message);
        },
      },
    );
  });
  return (
    <Modal opened={apiKey !== null} onClose={close} title="Revoke API Key">
      <form onSubmit={submit} aria-label="Revoke API key" noValidate>
        <Stack gap="sm">
          <Text size="sm">
            Revoke the key <b>{apiKey?.keyName}</b>? It stops working at once, and cannot be restored.
          </Text>
          <PasswordInput label="Your password" autoComplete="current-password" data-autofocus {...form.getInputProps('password')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" color="red" loading={revoke.isPending}>
              Revoke
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
