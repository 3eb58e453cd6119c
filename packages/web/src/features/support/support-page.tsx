import { Stack, Text } from '@mantine/core';
import { SUPPORT_MESSAGES } from '@vpp/shared/support/messages';
import { SUPPORT_PERMISSION } from '@vpp/shared/support/permissions';
import { LoadingSkeleton } from '../../components/loading-skeleton.tsx';
import { PageLayout } from '../../components/page-layout.tsx';
import { useAccount } from '../../lib/account.ts';
import { usePermission } from '../../lib/permission-gate.tsx';
import { useSupportSettings } from './api.ts';
import { SupportForm } from './components/support-form.tsx';
import { SupportFormFrame } from './components/support-form-frame.tsx';
import { SupportRequestsTable } from './components/support-requests-table.tsx';

/**
 * /support-issues: the help desk's contact form framed when SUPPORT_FORM_URL names one; otherwise
 * (the demo) the console's own form and the user's past requests, so that the page always works.
 */
export function SupportPage() {
  const allowed = usePermission(SUPPORT_PERMISSION);
  const settings = useSupportSettings();
  const account = useAccount();
  return (
    <PageLayout title="Support" permission={SUPPORT_PERMISSION}>
      {!allowed ? null : !settings.data || !account.data ? (
        <LoadingSkeleton variant="lines" />
      ) : settings.data.formUrl ? (
        <SupportFormFrame url={settings.data.formUrl} />
      ) : (
        <Stack gap="xl">
          <Stack gap="md">
            <Text size="sm" c="dimmed">
              {SUPPORT_MESSAGES.intro}
            </Text>
            <SupportForm account={account.data} />
          </Stack>
          <Stack gap="sm">
            <SupportRequestsTable />
          </Stack>
        </Stack>
      )}
    </PageLayout>
  );
}
