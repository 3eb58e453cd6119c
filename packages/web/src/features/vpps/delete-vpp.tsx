import { Button, Group, Modal, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { VPP_MESSAGES } from '@vpp/shared/vpps/messages';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useDeletePowerstation } from './api.ts';
import { VPP_LIST_PATH } from './vpp-paths.ts';

/** The Delete button and its confirmation; after a delete the user returns to the VPP list. */
export function DeleteVppButton({ vpp }: { vpp: { id: number; name: string } }) {
  const [opened, setOpened] = useState(false);
  const navigate = useNavigate();
  const remove = useDeletePowerstation();
  return (
    <>
      <Button color="red" variant="light" leftSection={<IconTrash size={16} />} onClick={() => setOpened(true)}>
        Delete
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title="Delete Virtual Power Plant">
        <Text>{VPP_MESSAGES.deleteConfirm(vpp.name)}</Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setOpened(false)}>
            Cancel
          </Button>
          <Button
            color="red"
            loading={remove.isPending}
            onClick={() =>
              remove.mutate(vpp, {
                onSuccess: () => navigate(VPP_LIST_PATH),
                onSettled: () => setOpened(false),
              })
            }
          >
            Delete
          </Button>
        </Group>
      </Modal>
    </>
  );
}
