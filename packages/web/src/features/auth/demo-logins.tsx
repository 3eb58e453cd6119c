import { Stack, Table, Text } from '@mantine/core';
import { DEMO_PASSWORD, DEMO_USERS, demoEmail } from '@vpp/shared';

/** The demo users and their password, under the login form in demo mode. */
export function DemoLogins() {
  return (
    <Stack gap={4} mt="sm">
      <Text size="sm" fw={600}>
        Demo logins (password {DEMO_PASSWORD})
      </Text>
      <Table fz="xs" withTableBorder verticalSpacing={2}>
        <Table.Tbody>
          {DEMO_USERS.map((u) => (
            <Table.Tr key={u.username}>
              <Table.Td>{u.username}</Table.Td>
              <Table.Td>{demoEmail(u.username)}</Table.Td>
              <Table.Td>{u.note}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
