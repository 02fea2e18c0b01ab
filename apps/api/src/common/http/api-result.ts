/**
 * What a handler returns when the envelope needs more than `data`: `messages` (token create and
 * delete) or a route-defined `meta`. Plain values become `data` as they are.
 */
export class ApiResult<T> {
  constructor(
    readonly data: T,
    readonly options: { messages?: string[]; meta?: unknown[] | Record<string, unknown> } = {},
  ) {}
}
