import { type ArgumentMetadata, Injectable, type PipeTransform } from '@nestjs/common';
import { USER_SESSION_ID_LENGTH, USER_SESSION_ID_PATTERN } from '@dts/domain';
import { ApiException } from '../../common/http/api.exception';

/** A session id as GET /user/session lists it; anything else is 400 naming the parameter. */
@Injectable()
export class SessionIdParamPipe implements PipeTransform<unknown, string> {
  transform(value: unknown, metadata: ArgumentMetadata): string {
    const name = metadata.data ?? 'id';
    if (typeof value !== 'string' || !USER_SESSION_ID_PATTERN.test(value))
      throw ApiException.validation(name, `${name} must be ${USER_SESSION_ID_LENGTH} lowercase hexadecimal characters, as GET /user/session lists it`);
    return value;
  }
}
