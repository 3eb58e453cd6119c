import { Alert, Button, Group, Select, SimpleGrid, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import type { Account } from '@vpp/shared/account/schemas';
import { nodeEndpoints } from '@vpp/shared/nodes/endpoints';
import { SUPPORT_MESSAGES, supportSentMessage } from '@vpp/shared/support/messages';
import {
  SUPPORT_CATEGORIES,
  SUPPORT_CATEGORY_LABELS,
  SUPPORT_LIMITS,
  type SupportCategory,
  type SupportRequest,
  supportRequestBody,
} from '@vpp/shared/support/schemas';
import { useState } from 'react';
import { usePermission } from '../../../lib/permission-gate.tsx';
import { ApiError } from '../../../lib/request.ts';
import { useCreateSupportRequest } from '../api.ts';
import { NodePicker } from './node-picker.tsx';

const CATEGORY_OPTIONS = SUPPORT_CATEGORIES.map((c) => ({ value: c, label: SUPPORT_CATEGORY_LABELS[c] }));

interface Values {
  subject: string;
  category: SupportCategory | null;
  nodeId: number | null;
  description: string;
  contactName: string;
  contactEmail: string;
  contactPhone: string;
}

/**
 * The console's own support form: what the request is about, an optional node, a description and
 * the contact details (the account's to start with). Fields are checked with the shared schema as
 * the server checks them; after sending, the reference shows above a fresh form.
 */
export function SupportForm(props: { account: Account }) {
  const create = useCreateSupportRequest();
  const [sent, setSent] = useState<{ request: SupportRequest; email: string } | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  // The node search is fleet monitoring's: a user who cannot search the fleet picks no node.
  const canSearchNodes = usePermission(nodeEndpoints.list.permission);
  const form = useForm<Values>({
    initialValues: {
      subject: '',
      category: null,
      nodeId: null,
      description: '',
      contactName: `${props.account.givenName} ${props.account.surname}`.trim(),
      contactEmail: props.account.email,
      contactPhone: '',
    },
    validate: schemaResolver(supportRequestBody, { sync: true }),
  });

  const submit = (values: Values) => {
    setServerError(null);
    setSent(null);
    create.mutate(
      { ...values, category: values.category as SupportCategory },
      {
        onSuccess: (request) => {
          setSent({ request, email: values.contactEmail.trim() });
          // A new request starts blank; the contact details stay as they were given.
          form.setValues({ subject: '', category: null, nodeId: null, description: '' });
          form.resetDirty();
        },
        onError: (err) => {
          if (err instanceof ApiError && err.status !== 401 && err.status !== 403) setServerError(err.message);
        },
      },
    );
  };

  return (
    <form onSubmit={form.onSubmit(submit)} noValidate aria-label="Support request">
      <Stack gap="md" maw={720}>
        {sent && (
          <Alert color="green" title={`${SUPPORT_MESSAGES.sentTitle}: ${sent.request.reference}`} role="status" withCloseButton onClose={() => setSent(null)}>
            {supportSentMessage(sent.request.reference, sent.email)}
          </Alert>
        )}
        <TextInput label="Subject" required maxLength={SUPPORT_LIMITS.subject} {...form.getInputProps('subject')} />
        <Select
          label="Category"
          required
          placeholder="What is the request about?"
          data={CATEGORY_OPTIONS}
          allowDeselect={false}
          {...form.getInputProps('category')}
        />
        {canSearchNodes && (
          <NodePicker value={form.values.nodeId} onChange={(id) => form.setFieldValue('nodeId', id)} error={form.errors.nodeId as string | undefined} />
        )}
        <Textarea
          label="Description"
          required
          autosize
          minRows={5}
          maxRows={16}
          maxLength={SUPPORT_LIMITS.description}
          description="What happened, when, and what you need from us."
          {...form.getInputProps('description')}
        />
        <Title order={2} size="h4">
          Your contact details
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput label="Name" required {...form.getInputProps('contactName')} />
          <TextInput label="Email" type="email" required {...form.getInputProps('contactEmail')} />
          <TextInput label="Phone" type="tel" {...form.getInputProps('contactPhone')} />
        </SimpleGrid>
        {serverError && (
          <Alert color="red" role="alert">
            {serverError}
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={create.isPending}>
            Send Request
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
