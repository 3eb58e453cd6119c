import { List, Text, ThemeIcon } from '@mantine/core';
import { IconCheck, IconPoint } from '@tabler/icons-react';
import { PASSWORD_REQUIREMENTS, passwordFailures } from '@vpp/shared/auth/password-rules';

/** The rules of spec 1 §5 beside a new-password field, each ticked once the password meets it. */
export function PasswordRequirements({ password }: { password: string }) {
  const failing = new Set(password ? passwordFailures(password) : PASSWORD_REQUIREMENTS.map((r) => r.key));
  return (
    <List size="xs" spacing={2} aria-label="Password requirements" center>
      {PASSWORD_REQUIREMENTS.map((r) => {
        const met = !failing.has(r.key);
        return (
          <List.Item
            key={r.key}
            icon={
              <ThemeIcon size={16} radius="xl" color={met ? 'teal' : 'gray'} variant={met ? 'filled' : 'light'}>
                {met ? <IconCheck size={11} /> : <IconPoint size={11} />}
              </ThemeIcon>
            }
          >
            <Text size="xs" c={met ? 'teal.8' : 'dimmed'}>
              {r.text}
            </Text>
          </List.Item>
        );
      })}
    </List>
  );
}
