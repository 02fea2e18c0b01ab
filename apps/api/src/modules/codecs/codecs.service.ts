import { Injectable } from '@nestjs/common';
import { DatamodelRepository, type DecoderRow } from '@dts/persistence';
import { CodecSandbox } from '@dts/platform';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { ApiException } from '../../common/http/api.exception';
import type { CodecResponse, CreateCodecDto } from './dto/codec.dto';

const toCodec = (row: DecoderRow): CodecResponse => ({ uid: row.uid, name: row.name, description: row.description, script: row.script ?? '' });

/** An account's own decoders: vendor codec scripts, usable as any of its devices' decoder_ref. */
@Injectable()
export class CodecsService {
  constructor(
    private readonly datamodel: DatamodelRepository,
    private readonly sandbox: CodecSandbox,
  ) {}

  async list(principal: AuthPrincipal): Promise<CodecResponse[]> {
    return (await this.datamodel.codecs(principal.accountId)).map(toCodec);
  }

  async create(principal: AuthPrincipal, dto: CreateCodecDto): Promise<CodecResponse> {
    const problem = this.sandbox.check(dto.script);
    if (problem) throw ApiException.validation('script', problem);
    const uid = await this.datamodel.createCodec(principal.accountId, dto.name, dto.description ?? '', dto.script);
    if (uid === null) throw ApiException.validation('name', 'a decoder of this name exists');
    return { uid, name: dto.name, description: dto.description ?? '', script: dto.script };
  }

  /** Devices that used the codec keep their uplinks and decode nothing from then on (raw). */
  async delete(principal: AuthPrincipal, uid: number): Promise<{ uid: number; deleted: true }> {
    if (!(await this.datamodel.deleteCodec(principal.accountId, uid))) throw ApiException.notFound('codec', 'uid');
    return { uid, deleted: true };
  }
}
