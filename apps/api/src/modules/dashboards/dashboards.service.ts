import { Injectable } from '@nestjs/common';
import {
  checkDashboardWidgets,
  DASHBOARD_SHARE_ROLES,
  type DashboardWidget,
  type DashboardWire,
  MAX_DASHBOARDS_PER_ACCOUNT,
  roleAtLeast,
  widgetDevices,
} from '@dts/domain';
import { type DashboardRow, type DashboardViewer, DashboardsRepository, DatamodelRepository } from '@dts/persistence';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { ApiException } from '../../common/http/api.exception';
import { canEditDashboard, toDashboardWire } from './dashboards.mapper';
import type { CreateDashboardDto, UpdateDashboardDto } from './dto/dashboard.dto';

/** The caller as the visibility rule needs them: who they are, and which share roles their role reaches. */
function viewerOf(me: AuthPrincipal): DashboardViewer {
  return { accountId: me.accountId, userId: me.userId, reach: DASHBOARD_SHARE_ROLES.filter((r) => roleAtLeast(me.role, r)) };
}

/**
 * Dashboards of the account acted in (docs/api.md §21). Visibility (maker, or a share role the
 * caller's reaches) is decided in the repository's query, so an invisible dashboard is exactly
 * like a missing one: 404, no existence oracle. Changing one is for its maker or an admin.
 */
@Injectable()
export class DashboardsService {
  constructor(
    private readonly dashboards: DashboardsRepository,
    private readonly datamodel: DatamodelRepository,
  ) {}

  async list(me: AuthPrincipal): Promise<DashboardWire[]> {
    return (await this.dashboards.list(viewerOf(me))).map((row) => toDashboardWire(me, row));
  }

  async one(me: AuthPrincipal, uid: number): Promise<DashboardWire> {
    return toDashboardWire(me, await this.visible(me, uid));
  }

  async create(me: AuthPrincipal, dto: CreateDashboardDto): Promise<DashboardWire> {
    const widgets = await this.checkedWidgets(me, dto.widgets ?? []);
    const row = await this.dashboards.create(viewerOf(me), { name: dto.name, widgets, shared_role: dto.shared_role ?? null }, MAX_DASHBOARDS_PER_ACCOUNT);
    if (!row) throw ApiException.of('LIMIT_REACHED', `an account has at most ${MAX_DASHBOARDS_PER_ACCOUNT} dashboards`);
    return toDashboardWire(me, row);
  }

  async update(me: AuthPrincipal, uid: number, dto: UpdateDashboardDto): Promise<DashboardWire> {
    await this.editable(me, uid);
    if (dto.name === undefined && dto.widgets === undefined && dto.shared_role === undefined) {
      throw ApiException.validation('name', 'give a new name, widgets or shared_role');
    }
    const widgets = dto.widgets === undefined ? undefined : await this.checkedWidgets(me, dto.widgets);
    const row = await this.dashboards.update(me.accountId, uid, { name: dto.name, widgets, shared_role: dto.shared_role });
    if (!row) throw ApiException.notFound('dashboard', 'uid');
    return toDashboardWire(me, row);
  }

  async delete(me: AuthPrincipal, uid: number): Promise<{ uid: number; deleted: true }> {
    await this.editable(me, uid);
    if (!(await this.dashboards.delete(me.accountId, uid))) throw ApiException.notFound('dashboard', 'uid');
    return { uid, deleted: true };
  }

  private async visible(me: AuthPrincipal, uid: number): Promise<DashboardRow> {
    const row = await this.dashboards.find(viewerOf(me), uid);
    if (!row) throw ApiException.notFound('dashboard', 'uid');
    return row;
  }

  /** A dashboard the caller sees (else 404) and may change (else 403: they see it, so saying why hides nothing). */
  private async editable(me: AuthPrincipal, uid: number): Promise<DashboardRow> {
    const row = await this.visible(me, uid);
    if (!canEditDashboard(me, row)) {
      throw ApiException.of('ROLE_REQUIRED', 'only its maker or an admin of the organisation changes or deletes a shared dashboard', 'uid');
    }
    return row;
  }

  /** Every problem of the widgets named (400), then every device checked against the account (404 naming the first widget's field). */
  private async checkedWidgets(me: AuthPrincipal, raw: unknown): Promise<DashboardWidget[]> {
    const { widgets, problems } = checkDashboardWidgets(raw);
    // A chart reads the series route, which draws data types only (a tile or gauge also reads any number of payload_decoded).
    // Checked once the shapes are right: only then is each widget at its index of the body.
    const charts = problems.length > 0 ? [] : widgets.flatMap((w, i) => (w.kind === 'chart' ? [{ i, members: w.options.members }] : []));
    if (charts.length > 0) {
      const known = new Set((await this.datamodel.dataTypes()).map((t) => t.alias));
      for (const { i, members } of charts) {
        const unknown = members.find((m) => !known.has(m));
        if (unknown !== undefined)
          problems.push({ field: `widgets.${i}.options.members`, message: `${unknown} is no data type (GET /datamodel/data/type/all)` });
      }
    }
    if (problems.length > 0) throw new ApiException(problems.map((p) => ({ code: 'VALIDATION_FAILED' as const, ...p })));
    const named = widgets.flatMap((w, i) => widgetDevices(w, i));
    const unknown = new Set(await this.dashboards.unknownEuis(me.accountId, [...new Set(named.map((n) => n.eui))]));
    const first = named.find((n) => unknown.has(n.eui));
    if (first) throw ApiException.of('NOT_FOUND', `device ${first.eui} not found`, first.field);
    return widgets;
  }
}
