import type { DeliveryWire, IntegrationWire } from '@dts/domain';
import { utcText } from './format';

export interface Health {
  tone: 'ok' | 'bad' | 'off' | 'info';
  label: string;
  /** One sentence for people; null when the label says all. */
  detail: string | null;
}

/**
 * How an integration is doing, from what the service keeps of it (docs/api.md §18): disabled by the
 * service (and why), switched off by the account, failing since when (and the last error), healthy,
 * or not used yet. The newest delivery, when loaded, adds when the next attempt is due.
 */
export function integrationHealth(i: IntegrationWire, newest?: DeliveryWire): Health {
  if (!i.enabled && i.disabled_reason)
    return {
      tone: 'bad',
      label: 'Disabled by the service',
      detail: `${i.disabled_reason} (${utcText(i.disabled_unix)} UTC). Switch it on again once the receiver is fixed.`,
    };
  if (!i.enabled) return { tone: 'off', label: 'Switched off', detail: 'No events are queued for it while it is off.' };
  if (i.failing_since_unix !== null) {
    const next = newest?.state === 'pending' && newest.next_attempt_unix !== null ? ` Next attempt ${utcText(newest.next_attempt_unix)} UTC.` : '';
    return {
      tone: 'bad',
      label: 'Failing',
      detail: `Every attempt since ${utcText(i.failing_since_unix)} UTC has failed${i.last_error ? `: ${i.last_error}` : '.'}${i.last_error ? '.' : ''}${next}`,
    };
  }
  if (i.last_success_unix !== null) return { tone: 'ok', label: 'Healthy', detail: `Last delivered ${utcText(i.last_success_unix)} UTC.` };
  return { tone: 'info', label: 'Nothing sent yet', detail: null };
}
