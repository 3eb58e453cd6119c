import { Button, Group, List, Stack, Table, Text, Textarea } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { KIT_MESSAGES } from '@vpp/shared/kit-designer/messages';
import { KIT_LIMITS, type KitOrder } from '@vpp/shared/kit-designer/schemas';

const dash = (v: number | null) => (v === null ? '—' : v);

/** The order: its lines, what the design means, the reference notes and the e-mail button. */
export function KitSummary(props: {
  order: KitOrder;
  referenceNotes: string;
  onReferenceNotes: (v: string) => void;
  emailed: boolean;
  sending: boolean;
  onEmail: () => void;
}) {
  const { order } = props;
  return (
    <Stack gap="md" mt="md">
      <Table striped withTableBorder aria-label="Kit order">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Code</Table.Th>
            <Table.Th>Description</Table.Th>
            <Table.Th ta="right">Qty</Table.Th>
            <Table.Th ta="right">Poles</Table.Th>
            <Table.Th ta="right">Solar phases</Table.Th>
            <Table.Th ta="right">Grid phases</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {order.lines.map((l) => (
            <Table.Tr key={l.code}>
              <Table.Td ff="monospace" style={{ whiteSpace: 'nowrap' }}>
                {l.code}
              </Table.Td>
              <Table.Td>{l.description}</Table.Td>
              <Table.Td ta="right">{l.qty}</Table.Td>
              <Table.Td ta="right">{dash(l.poles)}</Table.Td>
              <Table.Td ta="right">{dash(l.solarPhases)}</Table.Td>
              <Table.Td ta="right">{dash(l.gridPhases)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <List size="sm" spacing={4}>
        {order.referenceNotes.map((n) => (
          <List.Item key={n}>{n}</List.Item>
        ))}
      </List>
      <Textarea
        label="Reference notes"
        description="Sent with the order: a job number, the customer, the delivery address"
        autosize
        minRows={2}
        maxLength={KIT_LIMITS.referenceNotes}
        value={props.referenceNotes}
        onChange={(e) => props.onReferenceNotes(e.currentTarget.value)}
      />
      <Group>
        <Button onClick={props.onEmail} loading={props.sending}>
          Email order
        </Button>
        {props.emailed && (
          <Group gap={4} c="green.7" role="status">
            <IconCircleCheck size={18} />
            <Text size="sm" fw={500}>
              {KIT_MESSAGES.emailSent}
            </Text>
          </Group>
        )}
      </Group>
      <Text size="xs" c="dimmed">
        The order goes to you and to your organisation's ordering address.
      </Text>
    </Stack>
  );
}
