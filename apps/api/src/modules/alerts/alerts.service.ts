import { Injectable } from '@nestjs/common';
import { type AlertWire, normalizeEui, toAlertWire } from '@dts/domain';
import { AlertsRepository, DevicesRepository } from '@dts/persistence';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { ApiException } from '../../common/http/api.exception';
import type { AlertQueryDto } from './dto/alert.dto';

/** An account's alerts (docs/api.md §19): listed, read, acknowledged. */
@Injectable()
export class AlertsService {
  constructor(
    private readonly alerts: AlertsRepository,
    private readonly devices: DevicesRepository,
  ) {}

  async list(me: AuthPrincipal, q: AlertQueryDto): Promise<AlertWire[]> {
    let deviceId: number | null = null;
    if (q.eui !== undefined) {
      const eui = normalizeEui(q.eui);
      if (!eui) throw ApiException.validation('eui', 'eui must be 16 hexadecimal characters');
      const device = await this.devices.accessible(me.accountId, eui);
      if (!device) throw ApiException.notFound('device', 'eui');
      deviceId = device.uid;
    }
    if (q.from !== undefined && q.to !== undefined && q.from > q.to) throw ApiException.validation('from', 'from must not be after to');
    const rows = await this.alerts.list(me.accountId, {
      from: q.from ?? null,
      to: q.to ?? null,
      state: q.state ?? null,
      deviceId,
      before: q.before ?? null,
      limit: q.limit ?? 100,
    });
    return rows.map(toAlertWire);
  }

  async one(me: AuthPrincipal, uid: number): Promise<AlertWire> {
    const row = await this.alerts.find(me.accountId, String(uid));
    if (!row) throw ApiException.notFound('alert', 'uid');
    return toAlertWire(row);
  }

  async acknowledge(me: AuthPrincipal, uid: number): Promise<AlertWire> {
    const row = await this.alerts.acknowledge(me.accountId, String(uid));
    if (!row) throw ApiException.notFound('alert', 'uid');
    return toAlertWire(row);
  }
}
