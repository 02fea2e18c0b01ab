import type { AlertMailLimits } from '@dts/persistence';
import type { AppConfig } from '@dts/platform';

/** The hourly limits of alert mail, from the configuration (docs/api.md §19). */
export const alertMailLimits = (config: AppConfig): AlertMailLimits => ({
  perRecipientPerHour: config.mail.alertsPerRecipientPerHour,
  perAccountPerHour: config.mail.alertsPerAccountPerHour,
});
