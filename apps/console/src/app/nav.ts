import { type OrgRole, roleAtLeast } from '@dts/domain';
import { Activity, Braces, Building2, Camera, Cpu, FileUp, Hexagon, KeyRound, Map as MapIcon, ShieldCheck, UserRound, type LucideIcon } from 'lucide-react';

/**
 * The console's menu. Each page registers here once; part 2 adds Camera traps, Codecs, Fences,
 * Import, Tokens, Account and Admin (admin entries carry `admin: true` and are hidden from others).
 */
export interface NavItem {
  path: string;
  label: string;
  icon: LucideIcon;
  admin?: boolean;
  /** The least role where the console acts (docs/api.md §20): a page of nothing but what a role cannot do is not offered. */
  role?: OrgRole;
}

export const NAV: readonly NavItem[] = [
  { path: '/', label: 'Overview', icon: Activity },
  { path: '/devices', label: 'Devices', icon: Cpu },
  { path: '/map', label: 'Map', icon: MapIcon },
  { path: '/camera-traps', label: 'Camera traps', icon: Camera },
  { path: '/fences', label: 'Fences', icon: Hexagon },
  { path: '/codecs', label: 'Codecs', icon: Braces },
  { path: '/import', label: 'Import', icon: FileUp, role: 'operator' },
  { path: '/tokens', label: 'Tokens', icon: KeyRound, role: 'admin' },
  { path: '/organisations', label: 'Organisations', icon: Building2 },
  { path: '/account', label: 'Account', icon: UserRound },
  { path: '/admin', label: 'Admin', icon: ShieldCheck, admin: true },
];

/** Whether the menu offers the entry: administrators' to administrators, the rest to a role that may use it. */
export function shownTo(item: NavItem, who: { admin: boolean; role: OrgRole | null }): boolean {
  if (item.admin && !who.admin) return false;
  return item.role === undefined || (who.role !== null && roleAtLeast(who.role, item.role));
}

/** Whether a menu entry is the current page (a device page belongs to Devices). */
export function isCurrent(item: NavItem, location: string): boolean {
  return item.path === '/' ? location === '/' : location === item.path || location.startsWith(`${item.path}/`);
}
