import { Injectable } from '@nestjs/common';
import { type FenceDeviceWire, type FenceWire, type GeoJsonPolygon, pointInFence, prepareFence, toUnix } from '@dts/domain';
import { type FenceRow, FencesRepository } from '@dts/persistence';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { ApiException } from '../../common/http/api.exception';
import type { CreateFenceDto } from './dto/create-fence.dto';
import type { UpdateFenceDto } from './dto/update-fence.dto';

/** Devices a fence's bounding box may hold for GET /user/fence/{uid}/devices (the account's own limit is far below). */
const FENCE_DEVICES_MAX = 100_000;

const toFenceWire = (row: FenceRow): FenceWire => ({
  uid: row.uid,
  name: row.name,
  geometry: row.geometry as GeoJsonPolygon,
  created_unix: toUnix(row.created_at),
});

@Injectable()
export class FencesService {
  constructor(private readonly fences: FencesRepository) {}

  async list(principal: AuthPrincipal): Promise<FenceWire[]> {
    return (await this.fences.list(principal.accountId)).map(toFenceWire);
  }

  async one(principal: AuthPrincipal, uid: number): Promise<FenceWire> {
    const row = await this.fences.find(principal.accountId, uid);
    if (!row) throw ApiException.notFound('fence', 'uid');
    return toFenceWire(row);
  }

  async create(principal: AuthPrincipal, dto: CreateFenceDto): Promise<FenceWire> {
    return toFenceWire(await this.fences.create(principal.accountId, dto.name, dto.geometry));
  }

  async update(principal: AuthPrincipal, uid: number, dto: UpdateFenceDto): Promise<FenceWire> {
    if (dto.name === undefined && dto.geometry === undefined) throw ApiException.validation('name', 'give a new name, a new geometry, or both');
    const row = await this.fences.update(principal.accountId, uid, { name: dto.name, geometry: dto.geometry });
    if (!row) throw ApiException.notFound('fence', 'uid');
    return toFenceWire(row);
  }

  /** The account's devices inside the fence (holes excluded), by EUI. */
  async devices(principal: AuthPrincipal, uid: number): Promise<FenceDeviceWire[]> {
    const row = await this.fences.find(principal.accountId, uid);
    if (!row) throw ApiException.notFound('fence', 'uid');
    const fence = prepareFence(row.geometry as GeoJsonPolygon);
    const candidates = await this.fences.positionsWithin(principal.accountId, fence, FENCE_DEVICES_MAX);
    return candidates
      .filter((d) => pointInFence(fence, d.lon, d.lat))
      .map((d) => ({ devEUI: d.eui, label: d.label, lat: d.lat, lon: d.lon, position: d.reported ? 'reported' : 'installation' }));
  }

  async delete(principal: AuthPrincipal, uid: number): Promise<{ uid: number; deleted: true }> {
    if (!(await this.fences.delete(principal.accountId, uid))) throw ApiException.notFound('fence', 'uid');
    return { uid, deleted: true };
  }
}
