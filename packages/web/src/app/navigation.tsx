import {
  IconBolt,
  IconBuildingStore,
  IconChartBar,
  IconCurrencyDollar,
  IconHeadset,
  IconLayoutDashboard,
  IconMapPin,
  IconTool,
  IconUserCircle,
  IconUsers,
} from '@tabler/icons-react';
import type { PermissionRequirement } from '@vpp/shared';
import type { ComponentType } from 'react';

/** The sidebar groups of spec 1 §2, in order. */
export const NAV_GROUPS: { label: string; icon: ComponentType<{ size?: number }> }[] = [
  { label: 'Dashboard', icon: IconLayoutDashboard },
  { label: 'Virtual Power Plants', icon: IconBolt },
  { label: 'GridCredits', icon: IconCurrencyDollar },
  { label: 'Analysis', icon: IconChartBar },
  { label: 'Fleet Monitoring', icon: IconMapPin },
  { label: 'Ordering', icon: IconTool },
  { label: 'Support', icon: IconHeadset },
  { label: 'Customers', icon: IconBuildingStore },
  { label: 'My Reposit', icon: IconUsers },
];
export type NavGroupLabel = (typeof NAV_GROUPS)[number]['label'];

/** A sidebar entry: the route that declares it gives its path; list pages open with limit 10. */
export interface NavEntry {
  group: NavGroupLabel;
  label: string;
  /** Query string the sidebar link adds (list pages: limit=10&offset=0). */
  search?: string;
  permission: PermissionRequirement | null;
  order: number;
}

export const SettingsIcon = IconUserCircle;
