import { Box, Button, Group, Stack, Text } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { SUPPORT_MESSAGES } from '@vpp/shared/support/messages';

/**
 * The help desk's own contact form (SUPPORT_FORM_URL), framed; the content security policy allows
 * its origin. A desk that refuses to be framed cannot be detected from here (its refusal is not
 * visible across origins), so the link to open it in a new window is always there.
 */
export function SupportFormFrame(props: { url: string }) {
  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="sm">
        <Text size="sm" c="dimmed">
          {SUPPORT_MESSAGES.frameHint}
        </Text>
        <Button
          component="a"
          href={props.url}
          target="_blank"
          rel="noopener noreferrer"
          variant="default"
          size="xs"
          rightSection={<IconExternalLink size={14} aria-hidden />}
        >
          {SUPPORT_MESSAGES.openInNewWindow}
        </Button>
      </Group>
      <Box
        component="iframe"
        src={props.url}
        title={SUPPORT_MESSAGES.frameTitle}
        // The form may run its own scripts and post its form, nothing more: no top navigation of the console.
        sandbox="allow-scripts allow-forms allow-same-origin allow-popups allow-popups-to-escape-sandbox"
        referrerPolicy="strict-origin-when-cross-origin"
        style={{
          width: '100%',
          height: 'calc(100vh - 220px)',
          minHeight: 480,
          border: '1px solid var(--mantine-color-default-border)',
          borderRadius: 'var(--mantine-radius-md)',
        }}
      />
    </Stack>
  );
}
