import { ApiProperty } from '@nestjs/swagger';
import { IsObject, IsString, MaxLength, MinLength, registerDecorator } from 'class-validator';
import { FENCE_NAME_MAX_LENGTH, type GeoJsonPolygon, polygonProblem, type CreateFenceRequest } from '@dts/domain';
import { GeoJsonPolygonSchema } from '../../../common/openapi/api-envelope.decorator';

export function IsGeoJsonPolygon() {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isGeoJsonPolygon',
      target: object.constructor,
      propertyName,
      validator: {
        validate: (value: unknown) => polygonProblem(value) === null,
        defaultMessage: (args) => `geometry ${polygonProblem(args?.value) ?? 'is not a GeoJSON Polygon'}`,
      },
    });
}

export class CreateFenceDto implements CreateFenceRequest {
  @ApiProperty({ maxLength: FENCE_NAME_MAX_LENGTH, example: 'Farm' })
  @IsString()
  @MinLength(1)
  @MaxLength(FENCE_NAME_MAX_LENGTH)
  name!: string;

  @ApiProperty({
    type: GeoJsonPolygonSchema,
    description: 'GeoJSON Polygon: closed rings of [longitude, latitude] positions.',
    example: {
      type: 'Polygon',
      coordinates: [
        [
          [5.1, 52.0],
          [5.2, 52.0],
          [5.2, 52.1],
          [5.1, 52.0],
        ],
      ],
    },
  })
  @IsObject()
  @IsGeoJsonPolygon()
  geometry!: GeoJsonPolygon;
}
