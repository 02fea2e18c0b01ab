import { Activity, Braces, Camera, Cpu, FileUp, Hexagon, KeyRound, Map as MapIcon, ShieldCheck, UserRound, type LucideIcon } from 'lucide-react';

/**
 * The console's menu. Each page registers here once; part 2 adds Camera traps, Codecs, Fences,
 * Import, Tokens, Account and Admin (admin entries carry `admin: true` and are hidden from others).
 */
export interface NavItem {
  path: string;
  label: string;
  icon: LucideIcon;
  admin?: boolean;
}

export const NAV: readonly NavItem[] = [
  { path: '/', label: 'Overview', icon: Activity },
  { path: '/devices', label: 'Devices', icon: Cpu },
  { path: '/map', label: 'Map', icon: MapIcon },
  { path: '/camera-traps', label: 'Camera traps', icon: Camera },
  { path: '/fences', label: 'Fences', icon: Hexagon },
  { path: '/codecs', label: 'Codecs', icon: Braces },
  { path: '/import', label: 'Import', icon: FileUp },
  { path: '/tokens', label: 'Tokens', icon: KeyRound },
  { path: '/account', label: 'Account', icon: UserRound },
  { path: '/admin', label: 'Admin', icon: ShieldCheck, admin: true },
];

/** Whether a menu entry is the current page (a device page belongs to Devices). */
export function isCurrent(item: NavItem, location: string): boolean {
  return item.path === '/' ? location === '/' : location === item.path || location.startsWith(`${item.path}/`);
}
