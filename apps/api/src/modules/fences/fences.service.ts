import { Injectable } from '@nestjs/common';
import { type FenceWire, type GeoJsonPolygon, toUnix } from '@dts/domain';
import { type FenceRow, FencesRepository } from '@dts/persistence';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { ApiException } from '../../common/http/api.exception';
import type { CreateFenceDto } from './dto/create-fence.dto';

const toFenceWire = (row: FenceRow): FenceWire => ({ uid: row.uid, name: row.name, geometry: row.geometry as GeoJsonPolygon, created_unix: toUnix(row.created_at) });

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

  async delete(principal: AuthPrincipal, uid: number): Promise<{ uid: number; deleted: true }> {
    if (!(await this.fences.delete(principal.accountId, uid))) throw ApiException.notFound('fence', 'uid');
    return { uid, deleted: true };
  }
}
