import { successEnvelope } from '@dts/domain';
import { ApiResult } from './api-result';

/**
 * A handler's result in the envelope (docs/api.md §1): the one place success bodies are shaped.
 * Applied to every result Nest writes (ApiExpressAdapter.reply).
 */
export function envelopeOf(value: unknown) {
  return value instanceof ApiResult ? successEnvelope(value.data, value.options) : successEnvelope(value === undefined ? null : value);
}
