import { applyDecorators, type Type } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiProperty, type ApiPropertyOptions, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ERROR_STATUS, type ErrorCode, type GeoJsonPolygon } from '@dts/domain';

type Scalar = 'integer' | 'string' | 'boolean' | 'null';
export type EnvelopeData = Type<unknown> | [Type<unknown>] | Scalar | [Scalar];

const META_ARRAY = { type: 'array', items: {}, example: [] };

function dataSchema(data: EnvelopeData): Record<string, unknown> {
  const one = (d: Type<unknown> | Scalar) =>
    typeof d === 'string' ? (d === 'null' ? { type: 'object', nullable: true, example: null } : { type: d }) : { $ref: getSchemaPath(d) };
  return Array.isArray(data) ? { type: 'array', items: one(data[0]) } : one(data);
}

type EnvelopeOptions = { status?: number; description?: string; messages?: boolean; meta?: Record<string, unknown> };

/** The schema of the envelope (docs/api.md §1) around `data`. */
export function envelopeSchema(data: EnvelopeData, options: EnvelopeOptions = {}): Record<string, unknown> {
  return {
    type: 'object',
    required: ['errors', 'debug', 'meta', 'messages', 'data', 'success'],
    properties: {
      errors: { type: 'array', items: {}, example: [] },
      debug: { type: 'array', items: {}, example: [] },
      meta: options.meta ?? META_ARRAY,
      messages: options.messages
        ? { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 1 }
        : { type: 'array', items: { type: 'string' }, example: [] },
      data: dataSchema(data),
      success: { type: 'boolean', example: true },
    },
  };
}

export const envelopeModels = (data: EnvelopeData) => (Array.isArray(data) ? data : [data]).filter((d): d is Type<unknown> => typeof d !== 'string');

/** Documents a success response as the envelope (docs/api.md §1) around `data`. */
export function ApiEnvelope(data: EnvelopeData, options: EnvelopeOptions = {}) {
  return applyDecorators(
    ApiExtraModels(...envelopeModels(data)),
    ApiResponse({ status: options.status ?? 200, description: options.description ?? 'Success', schema: envelopeSchema(data, options) }),
  );
}

/** The schema of the error envelope carrying these codes. */
function errorSchema(codes: readonly ErrorCode[]): Record<string, unknown> {
  return {
    type: 'object',
    required: ['errors', 'debug', 'meta', 'messages', 'data', 'success'],
    properties: {
      errors: {
        type: 'array',
        items: {
          type: 'object',
          required: ['code', 'message'],
          properties: { code: { type: 'string', enum: codes }, message: { type: 'string' }, field: { type: 'string' } },
        },
      },
      debug: { type: 'array', items: {} },
      meta: { type: 'array', items: {} },
      messages: { type: 'array', items: { type: 'string' } },
      data: { type: 'object', nullable: true, example: null },
      success: { type: 'boolean', enum: [false] },
    },
  };
}

/** One error response (an OpenAPI Response object) for codes of one status. */
export function errorResponse(codes: readonly ErrorCode[]): Record<string, unknown> {
  return { description: codes.join(', '), content: { 'application/json': { schema: errorSchema(codes) } } };
}

/**
 * The error envelope, one response per status with the error codes (docs/api.md §1) it may carry.
 * 429 RATE_LIMITED and 503 UNAVAILABLE, which every route may answer, are added to every operation
 * by the document builder (openapi.ts); name them here only where the route has reasons of its own.
 */
export function ApiErrors(...codes: ErrorCode[]) {
  const byStatus = new Map<number, ErrorCode[]>();
  // A route that names a 503 of its own (QUERY_TIMEOUT) keeps the one every route may answer.
  const all: ErrorCode[] = codes.some((c) => ERROR_STATUS[c] === 503) ? [...codes, 'UNAVAILABLE'] : codes;
  for (const code of [...new Set(all), 'INTERNAL' as const]) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  return applyDecorators(...[...byStatus].map(([status, list]) => ApiResponse({ status, description: list.join(', '), schema: errorSchema(list) })));
}

/**
 * A body of one of several forms (`oneOf`), each a class of its own that `implements` its libs/domain
 * request type; the route's DTO still validates the body as a whole.
 */
export function ApiOneOfBody(description: string, ...forms: Type<unknown>[]) {
  return applyDecorators(ApiExtraModels(...forms), ApiBody({ description, required: true, schema: { oneOf: forms.map((f) => ({ $ref: getSchemaPath(f) })) } }));
}

/** The schema of a member that holds any JSON the caller gave (AnyJson in libs/domain). */
export const ANY_JSON_SCHEMA: ApiPropertyOptions = {
  oneOf: [
    { type: 'string' },
    { type: 'number' },
    { type: 'boolean' },
    { type: 'array', items: {} },
    { type: 'object', additionalProperties: true, nullable: true },
  ],
};

/** Marks a property whose schema the document builder empties (openapi.ts): any value. */
export const ANY_VALUE_MARK = 'x-dts-any-value';

/**
 * The schema of a member that holds any value at all (`unknown` in libs/domain): what a third-party
 * codec returned, for one. The builder leaves it without `type` (Nest always writes one), so
 * generators type it as unknown, as the wire type does.
 */
export const ANY_VALUE_SCHEMA = { type: 'object', [ANY_VALUE_MARK]: true } as unknown as ApiPropertyOptions;

/** A GeoJSON Polygon (RFC 7946): rings of [longitude, latitude] positions, the first ring the outer edge. */
export class GeoJsonPolygonSchema implements GeoJsonPolygon {
  @ApiProperty({ enum: ['Polygon'] }) type!: 'Polygon';
  @ApiProperty({
    type: 'array',
    items: { type: 'array', items: { type: 'array', minItems: 2, maxItems: 2, items: { type: 'number' } } },
    description: 'Linear rings of [longitude, latitude]; each closed (its last position its first), at least four positions.',
  })
  coordinates!: [number, number][][];
}
