import { ActionIcon, Button, Group, Text, TextInput } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import type { NodeDetail } from '@vpp/shared/nodes/schemas';
import { useState } from 'react';
import { useSaveSiteLabel } from './api.ts';

/** The inline-editable site label, at most 100 characters. */
export function SiteLabel({ node }: { node: NodeDetail }) {
  const save = useSaveSiteLabel(node.id);
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(node.siteLabel ?? '');
  if (!editing) {
    return (
      <Group gap={6}>
        <Text fw={500} c={node.siteLabel ? undefined : 'dimmed'}>
          {node.siteLabel ?? 'This site has no label.'}
        </Text>
        <ActionIcon
          variant="subtle"
          aria-label="Edit site label"
          onClick={() => {
            setValue(node.siteLabel ?? '');
            setEditing(true);
          }}
        >
          <IconPencil size={16} />
        </ActionIcon>
      </Group>
    );
  }
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(value.trim(), { onSuccess: () => setEditing(false) });
      }}
    >
      <Group gap="xs">
        <TextInput
          aria-label="Site label"
          value={value}
          maxLength={100}
          onChange={(e) => setValue(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') setEditing(false);
          }}
          w={320}
          description={`${value.length}/100`}
          autoFocus
        />
        <Button type="submit" size="xs" loading={save.isPending}>
          Save
        </Button>
        <Button size="xs" variant="default" onClick={() => setEditing(false)}>
          Cancel
        </Button>
      </Group>
    </form>
  );
}
