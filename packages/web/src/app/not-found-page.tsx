import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { APP_TITLE } from '@vpp/shared/constants';
import { MESSAGES } from '@vpp/shared/messages';
import { useEffect } from 'react';
import { Link } from 'react-router';

/** The 404 page; `inPanel` when it sits in the login shell's panel rather than the main shell. */
export function NotFoundPage({ inPanel = false }: { inPanel?: boolean }) {
  useEffect(() => {
    document.title = `Page not found | ${APP_TITLE}`;
  }, []);
  return (
    <Center mih={inPanel ? undefined : '60vh'}>
      <Stack align="center" gap="md">
        <Title order={1} size={72} c="dimmed">
          404
        </Title>
        <Text size="lg">{MESSAGES.notFound}</Text>
        <Button component={Link} to="/">
          {MESSAGES.backToDashboard}
        </Button>
      </Stack>
    </Center>
  );
}
