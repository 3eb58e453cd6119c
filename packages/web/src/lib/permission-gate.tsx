import { type PermissionRequirement, satisfies } from '@vpp/shared/permissions/registry';
import type { ReactNode } from 'react';
import { useAccount } from './account.ts';

/** Whether the signed-in user satisfies a requirement (false while the account loads). */
export function usePermission(requirement: PermissionRequirement | null | undefined): boolean {
  const { data } = useAccount();
  if (!requirement) return true;
  return data ? satisfies(data.permissions, requirement) : false;
}

/** Shows its children only when the check passes, otherwise the fallback (or nothing). */
export function PermissionGate(props: { require: PermissionRequirement; fallback?: ReactNode; children: ReactNode }) {
  return usePermission(props.require) ? props.children : (props.fallback ?? null);
}
