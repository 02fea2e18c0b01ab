import { ApiPropertyOptional } from '@nestjs/swagger';
import { FENCE_NAME_MAX_LENGTH, type GeoJsonPolygon, type UpdateFenceRequest } from '@dts/domain';
import { IsObject, IsString, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { IsGeoJsonPolygon } from './create-fence.dto';
import { GeoJsonPolygonSchema } from '../../../common/openapi/api-envelope.decorator';

/** PATCH /user/fence/{uid}: a new name, a new shape, or both (an empty body is refused by the service). */
export class UpdateFenceDto implements UpdateFenceRequest {
  @ApiPropertyOptional({ maxLength: FENCE_NAME_MAX_LENGTH, example: 'Farm' })
  // Absent is no change; null is no name (refused), not "absent".
  @ValidateIf((_, value) => value !== undefined)
  @IsString()
  @MinLength(1)
  @MaxLength(FENCE_NAME_MAX_LENGTH)
  name?: string;

  @ApiPropertyOptional({ type: GeoJsonPolygonSchema, description: 'GeoJSON Polygon: closed rings of [longitude, latitude] positions.' })
  @ValidateIf((_, value) => value !== undefined)
  @IsObject()
  @IsGeoJsonPolygon()
  geometry?: GeoJsonPolygon;
}
