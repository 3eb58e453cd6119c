import { Box, Group, Image, Paper, Title } from '@mantine/core';
import { APP_TITLE } from '@vpp/shared/constants';
import { type ReactNode, useEffect, useState } from 'react';

const BACKGROUNDS = ['dawn', 'noon', 'dusk', 'night'];

/**
 * The shell of signed-out pages: a random background picture, the logo, and a panel. With `title`
 * it names the document; without, the page in the panel names it (the password pages, whose title
 * depends on their link).
 */
export function LoginShell({ children, title }: { children: ReactNode; title?: string }) {
  // The picture index.html's first paint chose (issue 30), so that nothing changes as the app takes over.
  const [background] = useState(() => {
    const first = (window as { __loginBackground?: string }).__loginBackground;
    return first && BACKGROUNDS.includes(first) ? first : BACKGROUNDS[Math.floor(Math.random() * BACKGROUNDS.length)];
  });
  useEffect(() => {
    if (title) document.title = `${title} | ${APP_TITLE}`;
  }, [title]);
  return (
    <Box
      mih="100vh"
      style={{ backgroundImage: `url(/backgrounds/${background}.svg)`, backgroundSize: 'cover', backgroundPosition: 'center' }}
      data-background={background}
    >
      {/* The panel hangs from the top, as index.html paints it first: what arrives later (the demo logins) only grows it downwards. */}
      <Box p="md" pt="min(12vh, 6rem)">
        <Paper shadow="xl" radius="md" p="xl" w={460} maw="100%" mx="auto">
          <Group gap="sm" mb="lg">
            {/* Decoded with the paint that first shows it: the panel replaces index.html's without a frame lacking its logo. */}
            <Image src="/logo.svg" alt="" w={40} h={40} decoding="sync" />
            <Title order={1} size="h3">
              {APP_TITLE}
            </Title>
          </Group>
          {children}
        </Paper>
      </Box>
    </Box>
  );
}
