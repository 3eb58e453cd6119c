import { Button, Group, Modal, Text } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useState } from 'react';

/**
 * A destructive action that asks first (spec 3 §4: cancelling needs a confirmation): the button opens
 * the question; Back closes it; the confirm runs `onConfirm`, and the question closes once it has
 * answered, either way (a refusal shows its own toast; a success usually navigates away).
 */
export function ConfirmButton({
  label,
  title,
  question,
  confirmLabel,
  onConfirm,
  ariaLabel,
  size,
}: {
  label: string;
  /** A name that says which item, where the label alone is one of many ('Remove setpoint 5'); it starts with the label. */
  ariaLabel?: string;
  size?: 'xs' | 'sm';
  title: string;
  question: string;
  confirmLabel: string;
  onConfirm: () => Promise<unknown>;
}) {
  const [opened, setOpened] = useState(false);
  const [pending, setPending] = useState(false);
  const close = () => {
    setPending(false);
    setOpened(false);
  };
  return (
    <>
      <Button color="red" variant="light" size={size} aria-label={ariaLabel} leftSection={<IconX size={16} />} onClick={() => setOpened(true)}>
        {label}
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={title}>
        <Text>{question}</Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setOpened(false)}>
            Back
          </Button>
          <Button
            color="red"
            loading={pending}
            onClick={() => {
              setPending(true);
              onConfirm().then(close, close);
            }}
          >
            {confirmLabel}
          </Button>
        </Group>
      </Modal>
    </>
  );
}
