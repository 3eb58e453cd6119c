import { Alert, Anchor, Button, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { MESSAGES } from '@vpp/shared/messages';
import { type FormEvent, lazy, Suspense, useRef, useState } from 'react';
import { Link } from 'react-router';
import { DelayedLoader } from '../../components/delayed-loader.tsx';
import { useDemo } from '../../lib/meta.ts';
import { useSession } from '../../lib/session.ts';
import { loadAppStyles } from '../../lib/styles.ts';
import { useLogin } from './api.ts';
import { Captcha, type CaptchaHandle, loadCaptcha } from './captcha.tsx';
// The demo logins (demo mode only) come with the page: 1 KB gzipped, where a chunk of their own made
// the page's largest paint wait for one more request after the meta reply (issue 30).
import { DemoLogins } from './demo-logins.tsx';

// The two-factor forms (and the QR code of the set-up) load when a login asks for them, with the app's styles.
const loadMfaForms = () => Promise.all([import('./mfa-forms.tsx'), loadAppStyles()]).then(([m]) => m);
const MfaCodeForm = lazy(async () => ({ default: (await loadMfaForms()).MfaCodeForm }));
const MfaSetup = lazy(async () => ({ default: (await loadMfaForms()).MfaSetup }));

/** The login panel: credentials, then the two-factor step the reply asks for. */
export function LoginPanel() {
  const { loginStatus } = useSession();
  if (loginStatus === 'TOTP_REQUIRED' || loginStatus === 'TOTP_UNCONFIGURED') {
    return <Suspense fallback={<DelayedLoader minHeight={120} />}>{loginStatus === 'TOTP_REQUIRED' ? <MfaCodeForm /> : <MfaSetup />}</Suspense>;
  }
  return <LoginForm />;
}

/** The login form's own checks, before anything is sent. */
export const LOGIN_FIELD_MESSAGES = {
  usernameRequired: 'Enter your username or email.',
  passwordRequired: 'Enter your password.',
};

function LoginForm() {
  const s = useSession();
  const login = useLogin();
  const demo = useDemo();
  const captcha = useRef<CaptchaHandle>(null);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [captchaToken, setCaptchaToken] = useState<string | null>(null);
  const [missing, setMissing] = useState({ username: false, password: false });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!captchaToken) return;
    // Each empty field says so, and nothing is sent: the solved captcha stays for the next try.
    const empty = { username: username.trim() === '', password: password === '' };
    setMissing(empty);
    if (empty.username || empty.password) return;
    login.mutate({ username: username.trim(), password, captchaToken }, { onSettled: () => captcha.current?.reset() });
  };

  return (
    <form onSubmit={submit} aria-label="Log in" onFocus={loadCaptcha} onPointerOver={loadCaptcha}>
      <Stack gap="sm">
        <Title order={2} size="h3">
          Log in
        </Title>
        {s.sessionExpired && <Alert color="yellow">{MESSAGES.sessionExpired}</Alert>}
        {s.loginStatus === 'BAD_AUTH' && <Alert color="red">{MESSAGES.loginFailed}</Alert>}
        {s.loginStatus === 'ERROR' && s.message && <Alert color="red">{s.message}</Alert>}
        <TextInput
          label="Username or email"
          autoComplete="username"
          value={username}
          error={missing.username && LOGIN_FIELD_MESSAGES.usernameRequired}
          onChange={(e) => {
            setUsername(e.currentTarget.value);
            setMissing((m) => ({ ...m, username: false }));
          }}
        />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          value={password}
          error={missing.password && LOGIN_FIELD_MESSAGES.passwordRequired}
          onChange={(e) => {
            setPassword(e.currentTarget.value);
            setMissing((m) => ({ ...m, password: false }));
          }}
        />
        <Captcha ref={captcha} onToken={setCaptchaToken} login={username.trim()} />
        <Button type="submit" disabled={!captchaToken} loading={login.isPending}>
          Log In
        </Button>
        <Anchor component={Link} to="/password/forgot" size="sm">
          I've forgotten my password
        </Anchor>
        {demo && <DemoLogins />}
      </Stack>
    </form>
  );
}
