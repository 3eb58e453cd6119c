import {
  IconBolt,
  IconBuildingStore,
  IconChartBar,
  IconCurrencyDollar,
  IconHeadset,
  IconLayoutDashboard,
  IconMapPin,
  IconTool,
  IconUsers,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { NAV_GROUP_LABELS, type NavGroupLabel } from '../lib/routes.tsx';

const ICONS: Record<NavGroupLabel, ComponentType<{ size?: number }>> = {
  Dashboard: IconLayoutDashboard,
  'Virtual Power Plants': IconBolt,
  GridCredits: IconCurrencyDollar,
  Analysis: IconChartBar,
  'Fleet Monitoring': IconMapPin,
  Ordering: IconTool,
  Support: IconHeadset,
  Customers: IconBuildingStore,
  'My Reposit': IconUsers,
};

/** The sidebar groups of spec 1 §2, in order, with their icons. */
export const NAV_GROUPS: { label: NavGroupLabel; icon: ComponentType<{ size?: number }> }[] = NAV_GROUP_LABELS.map((label) => ({ label, icon: ICONS[label] }));
