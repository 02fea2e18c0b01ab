import type { CreateDashboardRequest, DashboardWire, DeletedWire, UpdateDashboardRequest } from '@dts/domain';
import { ROUTES } from '../routes';
import type { Transport } from '../transport';

/** Dashboards of the account acted in (docs/api.md §21): the caller's own and those shared with their role. */
export const dashboardsApi = (t: Transport) => ({
  list: () => t.data<DashboardWire[]>(ROUTES.dashboardsList),
  get: (uid: number) => t.data<DashboardWire>(ROUTES.dashboardsGet, { params: { uid } }),
  create: (body: CreateDashboardRequest) => t.data<DashboardWire>(ROUTES.dashboardsCreate, { body }),
  /** Any of name, widgets (the whole arrangement) and shared_role; its maker or an admin. */
  update: (uid: number, body: UpdateDashboardRequest) => t.data<DashboardWire>(ROUTES.dashboardsUpdate, { params: { uid }, body }),
  remove: (uid: number) => t.data<DeletedWire>(ROUTES.dashboardsRemove, { params: { uid } }),
});
