import type { DeliveryWire, IntegrationWire } from '@dts/domain';
import { i18n } from '../i18n';
import { utcText } from './format';

export interface Health {
  tone: 'ok' | 'bad' | 'off' | 'info';
  /** Which health, the same in every language (the page's `data-health`). */
  state: HealthState;
  /** The health in the console's language. */
  label: string;
  /** One sentence for people; null when the label says all. */
  detail: string | null;
}

export type HealthState = 'disabled' | 'off' | 'failing' | 'healthy' | 'unused';

/** The `data-health` names of the states (English, stable across languages, as tests find them). */
export const HEALTH_NAME: Record<HealthState, string> = {
  disabled: 'Disabled by the service',
  off: 'Switched off',
  failing: 'Failing',
  healthy: 'Healthy',
  unused: 'Nothing sent yet',
};

/**
 * How an integration is doing, from what the service keeps of it (docs/api.md §18): disabled by the
 * service (and why), switched off by the account, failing since when (and the last error), healthy,
 * or not used yet. The newest delivery, when loaded, adds when the next attempt is due. In the
 * console's language; the service's own texts (the reason, the last error) as it wrote them.
 */
export function integrationHealth(i: IntegrationWire, newest?: DeliveryWire): Health {
  const t = i18n.t;
  if (!i.enabled && i.disabled_reason)
    return {
      tone: 'bad',
      state: 'disabled',
      label: t('integrations.health.disabled'),
      detail: t('integrations.health.disabledDetail', { reason: i.disabled_reason, time: utcText(i.disabled_unix) }),
    };
  if (!i.enabled) return { tone: 'off', state: 'off', label: t('integrations.health.off'), detail: t('integrations.health.offDetail') };
  if (i.failing_since_unix !== null) {
    const time = utcText(i.failing_since_unix);
    const next = newest?.state === 'pending' && newest.next_attempt_unix !== null ? utcText(newest.next_attempt_unix) : null;
    const error = i.last_error;
    const detail =
      next === null
        ? error
          ? t('integrations.health.failingDetailError', { time, error })
          : t('integrations.health.failingDetail', { time })
        : error
          ? t('integrations.health.failingDetailErrorNext', { time, error, next })
          : t('integrations.health.failingDetailNext', { time, next });
    return { tone: 'bad', state: 'failing', label: t('integrations.health.failing'), detail };
  }
  if (i.last_success_unix !== null)
    return {
      tone: 'ok',
      state: 'healthy',
      label: t('integrations.health.healthy'),
      detail: t('integrations.health.healthyDetail', { time: utcText(i.last_success_unix) }),
    };
  return { tone: 'info', state: 'unused', label: t('integrations.health.unused'), detail: null };
}
