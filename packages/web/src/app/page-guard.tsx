import type { PermissionRequirement } from '@vpp/shared/permissions/registry';
import type { ReactNode } from 'react';
import { DelayedLoader } from '../components/delayed-loader.tsx';
import { PageLayout } from '../components/page-layout.tsx';
import { useAccount } from '../lib/account.ts';
import { usePermission } from '../lib/permission-gate.tsx';

/**
 * A page its route says the user may not open: the page's title and the refusal, and the page
 * itself never mounts, so it calls nothing the server would refuse. Waits for the account (the
 * permissions) first.
 */
export function PageGuard({ permission, title, children }: { permission: PermissionRequirement; title: string; children: ReactNode }) {
  const account = useAccount();
  const allowed = usePermission(permission);
  if (!account.data) return <DelayedLoader minHeight="60vh" />;
  if (allowed) return children;
  return (
    <PageLayout title={title} permission={permission}>
      {null}
    </PageLayout>
  );
}
