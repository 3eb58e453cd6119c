import { Box, Center, Group, Image, Paper, Title } from '@mantine/core';
import { APP_TITLE } from '@vpp/shared';
import { type ReactNode, useEffect, useState } from 'react';

const BACKGROUNDS = ['dawn', 'noon', 'dusk', 'night'];

/**
 * The shell of signed-out pages: a random background picture, the logo, and a panel. With `title`
 * it names the document; without, the page in the panel names it (the password pages, whose title
 * depends on their link).
 */
export function LoginShell({ children, title }: { children: ReactNode; title?: string }) {
  const [background] = useState(() => BACKGROUNDS[Math.floor(Math.random() * BACKGROUNDS.length)]);
  useEffect(() => {
    if (title) document.title = `${title} | ${APP_TITLE}`;
  }, [title]);
  return (
    <Box
      mih="100vh"
      style={{ backgroundImage: `url(/backgrounds/${background}.svg)`, backgroundSize: 'cover', backgroundPosition: 'center' }}
      data-background={background}
    >
      <Center mih="100vh" p="md">
        <Paper shadow="xl" radius="md" p="xl" w={460} maw="100%">
          <Group gap="sm" mb="lg">
            <Image src="/logo.svg" alt="" w={40} h={40} />
            <Title order={1} size="h3">
              {APP_TITLE}
            </Title>
          </Group>
          {children}
        </Paper>
      </Center>
    </Box>
  );
}
