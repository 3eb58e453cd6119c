import { Alert, Anchor, Button, PasswordInput, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { DEMO_PASSWORD, DEMO_USERS, demoEmail, MESSAGES } from '@vpp/shared';
import { type FormEvent, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useSession } from '../../lib/session.ts';
import { useLogin, useMeta } from './api.ts';
import { Captcha, type CaptchaHandle } from './captcha.tsx';
import { MfaCodeForm, MfaSetup } from './mfa-forms.tsx';

/** The login panel: credentials, then the two-factor step the reply asks for. */
export function LoginPanel() {
  const { loginStatus } = useSession();
  if (loginStatus === 'TOTP_REQUIRED') return <MfaCodeForm />;
  if (loginStatus === 'TOTP_UNCONFIGURED') return <MfaSetup />;
  return <LoginForm />;
}

function LoginForm() {
  const s = useSession();
  const login = useLogin();
  const meta = useMeta();
  const captcha = useRef<CaptchaHandle>(null);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [captchaToken, setCaptchaToken] = useState<string | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!captchaToken) return;
    login.mutate({ username: username.trim(), password, captchaToken }, { onSettled: () => captcha.current?.reset() });
  };

  return (
    <form onSubmit={submit} aria-label="Log in">
      <Stack gap="sm">
        <Title order={2} size="h3">
          Log in
        </Title>
        {s.sessionExpired && <Alert color="yellow">{MESSAGES.sessionExpired}</Alert>}
        {s.loginStatus === 'BAD_AUTH' && <Alert color="red">{MESSAGES.loginFailed}</Alert>}
        {s.loginStatus === 'ERROR' && s.message && <Alert color="red">{s.message}</Alert>}
        <TextInput label="Username or email" autoComplete="username" value={username} onChange={(e) => setUsername(e.currentTarget.value)} />
        <PasswordInput label="Password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
        <Captcha ref={captcha} onToken={setCaptchaToken} />
        <Button type="submit" disabled={!captchaToken} loading={login.isPending}>
          Log In
        </Button>
        <Anchor component={Link} to="/password/forgot" size="sm">
          I've forgotten my password
        </Anchor>
        {meta.data?.demo && <DemoLogins />}
      </Stack>
    </form>
  );
}

function DemoLogins() {
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
