import { type DashboardWidget, type DashboardWire, roleAtLeast, toUnix } from '@dts/domain';
import type { DashboardRow } from '@dts/persistence';
import type { AuthPrincipal } from '../../common/auth/auth-principal';

/**
 * Whether the caller may change and delete the dashboard: its maker, or an admin (or owner) of the
 * organisation for a shared one. A private dashboard is its maker's alone, even to an owner: they
 * never see it (docs/api.md §21).
 */
export function canEditDashboard(me: AuthPrincipal, row: Pick<DashboardRow, 'created_by' | 'shared_role'>): boolean {
  return row.created_by === me.userId || (row.shared_role !== null && roleAtLeast(me.role, 'admin'));
}

/** A stored dashboard as the caller sees it. The widgets were checked on their way in (checkDashboardWidgets). */
export function toDashboardWire(me: AuthPrincipal, row: DashboardRow): DashboardWire {
  return {
    uid: row.uid,
    name: row.name,
    widgets: row.widgets as DashboardWidget[],
    shared_role: row.shared_role,
    created_by: row.maker,
    editable: canEditDashboard(me, row),
    created_unix: toUnix(row.created_at),
    updated_unix: toUnix(row.updated_at),
  };
}
