import { Box, Paper, Text } from '@mantine/core';

/** The message a customer's app shows for an event: a title and a text. */
export interface CustomerMessage {
  title: string;
  text: string;
}

/** How the customer's phone shows the message: the app's notification card. */
export function PhonePreview({ message }: { message: CustomerMessage }) {
  return (
    <Box
      aria-label="Phone preview"
      role="figure"
      w={{ base: 200, sm: 230 }}
      h={{ base: 320, sm: 420 }}
      p={10}
      mx="auto"
      style={{ borderRadius: 32, background: '#212529', boxShadow: '0 4px 16px rgba(0,0,0,0.2)' }}
    >
      <Box h="100%" p="sm" style={{ borderRadius: 24, background: 'linear-gradient(180deg, #d0ebff 0%, #e7f5ff 100%)', overflow: 'hidden' }}>
        <Text ta="center" size="xs" c="dark.4" mb="md">
          GridCredits
        </Text>
        <Paper p="xs" radius="md" shadow="xs">
          <Text size="sm" fw={700} lineClamp={2}>
            {message.title || ' '}
          </Text>
          <Text size="xs" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} lineClamp={12}>
            {message.text}
          </Text>
        </Paper>
      </Box>
    </Box>
  );
}
