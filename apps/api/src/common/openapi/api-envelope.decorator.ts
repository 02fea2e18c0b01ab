import { applyDecorators, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ERROR_STATUS, type ErrorCode } from '@dts/domain';

type Scalar = 'integer' | 'string' | 'boolean' | 'null';
export type EnvelopeData = Type<unknown> | [Type<unknown>] | Scalar | [Scalar];

const META_ARRAY = { type: 'array', items: {}, example: [] };

function dataSchema(data: EnvelopeData): Record<string, unknown> {
  const one = (d: Type<unknown> | Scalar) => (typeof d === 'string' ? (d === 'null' ? { type: 'object', nullable: true, example: null } : { type: d }) : { $ref: getSchemaPath(d) });
  return Array.isArray(data) ? { type: 'array', items: one(data[0]) } : one(data);
}

type EnvelopeOptions = { status?: number; description?: string; messages?: boolean; meta?: Record<string, unknown> };

/** The schema of the spec's envelope around `data`. */
export function envelopeSchema(data: EnvelopeData, options: EnvelopeOptions = {}): Record<string, unknown> {
  return {
    type: 'object',
    required: ['errors', 'debug', 'meta', 'messages', 'data', 'success'],
    properties: {
      errors: { type: 'array', items: {}, example: [] },
      debug: { type: 'array', items: {}, example: [] },
      meta: options.meta ?? META_ARRAY,
      messages: options.messages ? { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 1 } : { type: 'array', items: { type: 'string' }, example: [] },
      data: dataSchema(data),
      success: { type: 'boolean', example: true },
    },
  };
}

export const envelopeModels = (data: EnvelopeData) => (Array.isArray(data) ? data : [data]).filter((d): d is Type<unknown> => typeof d !== 'string');

/** Documents a success response as the spec's envelope around `data`. */
export function ApiEnvelope(data: EnvelopeData, options: EnvelopeOptions = {}) {
  return applyDecorators(
    ApiExtraModels(...envelopeModels(data)),
    ApiResponse({ status: options.status ?? 200, description: options.description ?? 'Success', schema: envelopeSchema(data, options) }),
  );
}

/** The error envelope, one response per status with the CONTRACT codes it may carry. */
export function ApiErrors(...codes: ErrorCode[]) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of [...codes, 'INTERNAL' as const]) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  return applyDecorators(
    ...[...byStatus].map(([status, list]) =>
      ApiResponse({
        status,
        description: list.join(', '),
        schema: {
          type: 'object',
          properties: {
            errors: {
              type: 'array',
              items: {
                type: 'object',
                required: ['code', 'message'],
                properties: { code: { type: 'string', enum: list }, message: { type: 'string' }, field: { type: 'string' } },
              },
            },
            debug: { type: 'array', items: {} },
            meta: { type: 'array', items: {} },
            messages: { type: 'array', items: { type: 'string' } },
            data: { type: 'object', nullable: true, example: null },
            success: { type: 'boolean', example: false },
          },
        },
      }),
    ),
  );
}
