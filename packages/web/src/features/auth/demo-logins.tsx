import { Box, Stack, Text } from '@mantine/core';
import { DEMO_PASSWORD, DEMO_USERS, demoEmail } from '@vpp/shared/demo';

const border = '1px solid var(--mantine-color-gray-3)';
const cell = { padding: '2px var(--mantine-spacing-xs)' };

/**
 * The demo users and their password, under the login form in demo mode. A plain table drawn as
 * Mantine's bordered one: Mantine's Table brings its scroll container, and with it floating-ui, 20 KB
 * gzipped onto the login page for three columns (issue 30).
 */
export function DemoLogins() {
  return (
    <Stack gap={4} mt="sm">
      <Text size="sm" fw={600}>
        Demo logins (password {DEMO_PASSWORD})
      </Text>
      <Box component="table" fz="xs" lh="var(--mantine-line-height)" w="100%" style={{ borderCollapse: 'collapse', border }}>
        <tbody>
          {DEMO_USERS.map((u) => (
            <tr key={u.username} style={{ borderBottom: border }}>
              <td style={cell}>{u.username}</td>
              <td style={cell}>{demoEmail(u.username)}</td>
              <td style={cell}>{u.note}</td>
            </tr>
          ))}
        </tbody>
      </Box>
    </Stack>
  );
}
