import { Alert, Anchor, Button, Checkbox, Code, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { MESSAGES } from '@vpp/shared/messages';
import { QRCodeSVG } from 'qrcode.react';
import { type FormEvent, useState } from 'react';
import { ApiError } from '../../lib/request.ts';
import { useSession } from '../../lib/session.ts';
import { logout, useVerifyCode } from './api.ts';

const clean = (code: string) => code.replace(/\s+/g, '');
const isCode = (code: string) => /^\d{6}$/.test(clean(code));

/** Code entry for a confirmed authenticator, with 'remember this browser' for two weeks. */
export function MfaCodeForm({ setup = false }: { setup?: boolean }) {
  const verify = useVerifyCode();
  const [code, setCode] = useState('');
  const [touched, setTouched] = useState(false);
  const [remember, setRemember] = useState(false);
  const [serverMessage, setServerMessage] = useState<string | null>(null);

  const rejected = serverMessage !== null;
  const fieldError = touched && !isCode(code) ? MESSAGES.codeLength : rejected ? MESSAGES.codeInvalid : null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!isCode(code)) return;
    verify.mutate(
      { totpCode: clean(code), rememberDevice: remember },
      {
        onError: (err) => setServerMessage(err instanceof ApiError ? err.message : MESSAGES.codeRejected),
        onSuccess: () => setServerMessage(null),
      },
    );
  };

  return (
    <form onSubmit={submit} aria-label="Two-factor code">
      <Stack gap="sm">
        {!setup && (
          <>
            <Title order={2} size="h3">
              Two-factor authentication
            </Title>
            <Text size="sm">Enter the 6-digit code from your authenticator app.</Text>
          </>
        )}
        {rejected && (
          <Alert color="red">
            {MESSAGES.codeRejected}
            {serverMessage !== MESSAGES.codeInvalid && serverMessage ? ` ${serverMessage}` : ''}
          </Alert>
        )}
        <TextInput
          label="6-digit code"
          inputMode="numeric"
          autoComplete="one-time-code"
          value={code}
          error={fieldError}
          onChange={(e) => {
            setCode(e.currentTarget.value);
            setServerMessage(null);
          }}
          onBlur={() => setTouched(true)}
        />
        <Checkbox label="Remember this browser for 2 weeks" checked={remember} onChange={(e) => setRemember(e.currentTarget.checked)} />
        <Group justify="space-between">
          <Anchor component="button" type="button" size="sm" onClick={() => void logout()}>
            Back to login
          </Anchor>
          <Button type="submit" loading={verify.isPending}>
            Verify
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** First sign-in with two-factor required: scan the QR code, then confirm with a first code. */
export function MfaSetup() {
  const { totpConfig } = useSession();
  const uri = totpConfig?.totpUri ?? '';
  const secret = uri ? (new URL(uri).searchParams.get('secret') ?? '') : '';
  return (
    <Stack gap="sm">
      <Title order={2} size="h3">
        Set up two-factor authentication
      </Title>
      <Text size="sm">Your organisation requires a second factor. Scan this code with an authenticator app, then enter the 6-digit code it shows.</Text>
      {uri && (
        <Group justify="center">
          <QRCodeSVG value={uri} size={180} title="Authenticator QR code" marginSize={2} />
        </Group>
      )}
      <Text size="xs">
        Or enter this key by hand: <Code data-testid="totp-secret">{secret}</Code>
      </Text>
      <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
        <Code data-testid="totp-uri">{uri}</Code>
      </Text>
      <MfaCodeForm setup />
    </Stack>
  );
}
