import { type OrgRole, roleAtLeast } from '@dts/domain';
import type { Messages } from '../i18n/messages';
import {
  Activity,
  Bell,
  Braces,
  Building2,
  Camera,
  Cpu,
  FileUp,
  Hexagon,
  KeyRound,
  LayoutDashboard,
  ListChecks,
  Map as MapIcon,
  Network,
  RadioTower,
  ShieldCheck,
  UserRound,
  Webhook,
  type LucideIcon,
} from 'lucide-react';

/**
 * The menu's sections, in the order the side menu shows them: where a user starts, the devices and
 * what comes from them, how data gets in, what runs on it, and who may do what.
 */
export const NAV_GROUPS = ['monitor', 'devices', 'data', 'automation', 'access'] as const satisfies readonly (keyof Messages['shell']['groups'])[];
export type NavGroup = (typeof NAV_GROUPS)[number];

/**
 * The console's menu. Each page registers here once, in its section (admin entries carry
 * `admin: true` and are hidden from others).
 */
export interface NavItem {
  path: string;
  /** Its name in the message catalogue (`shell.nav.<label>`). */
  label: keyof Messages['shell']['nav'];
  icon: LucideIcon;
  /** Its section of the side menu; an entry naming none is shown with the devices. */
  group?: NavGroup;
  admin?: boolean;
  /** The least role where the console acts (docs/api.md §20): a page of nothing but what a role cannot do is not offered. */
  role?: OrgRole;
}

export const NAV: readonly NavItem[] = [
  { path: '/', label: 'overview', icon: Activity, group: 'monitor' },
  { path: '/map', label: 'map', icon: MapIcon, group: 'monitor' },
  { path: '/dashboards', label: 'dashboards', icon: LayoutDashboard, group: 'monitor' },
  { path: '/alerts', label: 'alerts', icon: Bell, group: 'monitor' },
  { path: '/devices', label: 'devices', icon: Cpu, group: 'devices' },
  { path: '/camera-traps', label: 'cameraTraps', icon: Camera, group: 'devices' },
  { path: '/import', label: 'import', icon: FileUp, role: 'operator', group: 'devices' },
  { path: '/networks', label: 'networks', icon: Network, group: 'data' },
  { path: '/gateways', label: 'gateways', icon: RadioTower, group: 'data' },
  { path: '/codecs', label: 'codecs', icon: Braces, group: 'data' },
  { path: '/fences', label: 'fences', icon: Hexagon, group: 'automation' },
  { path: '/rules', label: 'rules', icon: ListChecks, group: 'automation' },
  // Where the account's data goes, and the secrets to it: admins' and owners', as the service says.
  { path: '/integrations', label: 'integrations', icon: Webhook, role: 'admin', group: 'automation' },
  { path: '/tokens', label: 'tokens', icon: KeyRound, role: 'admin', group: 'access' },
  { path: '/organisations', label: 'organisations', icon: Building2, group: 'access' },
  { path: '/account', label: 'account', icon: UserRound, group: 'access' },
  { path: '/admin', label: 'admin', icon: ShieldCheck, admin: true, group: 'access' },
];

/** The entries shown, by section, in NAV_GROUPS' order (a section with none shown is left out). */
export function navSections(items: readonly NavItem[]): { id: NavGroup; items: NavItem[] }[] {
  return NAV_GROUPS.map((id) => ({ id, items: items.filter((item) => (item.group ?? 'devices') === id) })).filter((g) => g.items.length > 0);
}

/** Whether the menu offers the entry: administrators' to administrators, the rest to a role that may use it. */
export function shownTo(item: NavItem, who: { admin: boolean; role: OrgRole | null }): boolean {
  if (item.admin && !who.admin) return false;
  return item.role === undefined || (who.role !== null && roleAtLeast(who.role, item.role));
}

/** Whether a menu entry is the current page (a device page belongs to Devices). */
export function isCurrent(item: NavItem, location: string): boolean {
  return item.path === '/' ? location === '/' : location === item.path || location.startsWith(`${item.path}/`);
}
