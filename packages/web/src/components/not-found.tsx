import { Button, Center, Stack, Text } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from 'react-router';

/** A record that is not there (or not the caller's): the page's text and the way back to its list. */
export function NotFound({ text, listPath, backLabel }: { text: string; listPath: string; backLabel: string }) {
  return (
    <Center py="xl">
      <Stack align="center" gap="md">
        <Text c="dimmed" ta="center" maw={520}>
          {text}
        </Text>
        <Button component={Link} to={listPath} leftSection={<IconArrowLeft size={16} />}>
          {backLabel}
        </Button>
      </Stack>
    </Center>
  );
}
