import { type ArgumentMetadata, Injectable, type PipeTransform } from '@nestjs/common';
import { type Eui, normalizeEui } from '@dts/domain';
import { ApiException } from './api.exception';

/** How the OpenAPI document describes a path EUI (`@ApiParam(EUI_PARAM)`): what EuiParamPipe accepts. */
export const EUI_PARAM = { name: 'eui', description: '16 hex characters; any case, `-` or `:` separators accepted', example: '70B3D57ED0001234' };

/** A path EUI in any accepted form, normalised; anything else is 400 naming the parameter. */
@Injectable()
export class EuiParamPipe implements PipeTransform<string, Eui> {
  transform(value: string, metadata: ArgumentMetadata): Eui {
    const eui = normalizeEui(value);
    const name = metadata.data ?? 'eui';
    if (!eui) throw ApiException.validation(name, `${name} must be 16 hexadecimal characters, optionally separated by - or :`);
    return eui;
  }
}
