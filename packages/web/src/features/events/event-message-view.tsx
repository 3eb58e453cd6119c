import { Anchor, Button, Group, Paper, Select, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { DISPATCH_MESSAGE_LIMITS } from '@vpp/shared/dispatches/schemas';
import { formatDateTime } from '@vpp/shared/format';
import { useState } from 'react';
import { type CustomerMessage, PhonePreview } from './phone-preview.tsx';

/**
 * The customer message view of every kind's New-event modal (spec 3 §2.3, §2.6): title and text with
 * a phone preview and, where the kind keeps them, the previous messages to start from. Cancel drops
 * the edit; Save Message keeps it.
 */
export function EventMessageView(props: {
  message: CustomerMessage;
  /** The kind's previous messages (a kind without them, as grid outages, shows no choice). */
  previous?: readonly { title: string; customerMessage: string; createdAt: number }[];
  zone: string;
  onCancel: () => void;
  onSave: (message: CustomerMessage) => void;
}) {
  const [edit, setEdit] = useState(props.message);
  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        <Stack gap="sm">
          {props.previous && <PreviousMessages previous={props.previous} zone={props.zone} onPick={setEdit} />}
          <TextInput
            label="Title"
            value={edit.title}
            maxLength={DISPATCH_MESSAGE_LIMITS.title}
            onChange={(e) => setEdit({ ...edit, title: e.currentTarget.value })}
          />
          <Textarea
            label="Message"
            value={edit.text}
            autosize
            minRows={6}
            maxRows={12}
            maxLength={DISPATCH_MESSAGE_LIMITS.text}
            description={`${edit.text.length}/${DISPATCH_MESSAGE_LIMITS.text} characters`}
            onChange={(e) => setEdit({ ...edit, text: e.currentTarget.value })}
          />
        </Stack>
        <PhonePreview message={edit} />
      </SimpleGrid>
      <Group justify="flex-end">
        <Button variant="default" onClick={props.onCancel}>
          Cancel
        </Button>
        <Button onClick={() => props.onSave(edit)}>Save Message</Button>
      </Group>
    </Stack>
  );
}

/** The previous messages to start from: picking one puts its title and text in the editor. */
function PreviousMessages(props: {
  previous: readonly { title: string; customerMessage: string; createdAt: number }[];
  zone: string;
  onPick: (message: CustomerMessage) => void;
}) {
  const [picked, setPicked] = useState<string | null>(null);
  return (
    <Select
      label="Previous messages"
      placeholder={props.previous.length ? 'Choose a previous message' : 'No previous messages'}
      disabled={!props.previous.length}
      data={props.previous.map((m, i) => ({
        value: String(i),
        label: `${formatDateTime(m.createdAt, props.zone)}: ${m.title} — ${m.customerMessage.slice(0, 60)}${m.customerMessage.length > 60 ? '…' : ''}`,
      }))}
      value={picked}
      onChange={(v) => {
        setPicked(v);
        const m = v === null ? undefined : props.previous[Number(v)];
        if (m) props.onPick({ title: m.title, text: m.customerMessage });
      }}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

/**
 * The customer message a New-event modal sends (a dispatch's, a grid outage's), in its edit view: the
 * message's title and text with the way to edit it, or, when none is sent, why not (`none`).
 */
export function CustomerMessageSummary(props: {
  /** The box's accessible name. */
  label: string;
  /** Said above the message. */
  heading?: string;
  /** The message's two lines as shown, or null when none is sent. */
  lines: { title: string; text: string } | null;
  none?: string;
  editLabel: string;
  onEdit: () => void;
}) {
  const { lines } = props;
  return (
    <Paper withBorder p="sm" aria-label={props.label}>
      {lines ? (
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <div style={{ minWidth: 0 }}>
            {props.heading && (
              <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                {props.heading}
              </Text>
            )}
            <Text size="sm" fw={600}>
              {lines.title}
            </Text>
            <Text size="sm" c="dimmed" lineClamp={2}>
              {lines.text}
            </Text>
          </div>
          <Anchor component="button" type="button" size="sm" style={{ flexShrink: 0 }} onClick={props.onEdit}>
            {props.editLabel}
          </Anchor>
        </Group>
      ) : (
        <Text size="sm" c="dimmed">
          {props.none}
        </Text>
      )}
    </Paper>
  );
}
