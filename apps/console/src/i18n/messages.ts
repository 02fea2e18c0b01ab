import { overview } from './en/overview';
import { shell } from './en/shell';
import { time } from './en/time';
import { devices } from './en/devices';
import { fences } from './en/fences';
import { tokens } from './en/tokens';
import { common } from './en/common';
import { codecs } from './en/codecs';
import { auth } from './en/auth';
import { cameraTraps } from './en/cameraTraps';
import { account } from './en/account';
import { organisations } from './en/organisations';
import { commands } from './en/commands';
import { device } from './en/device';
import { audit } from './en/audit';
import { admin } from './en/admin';
import { importDevices } from './en/importDevices';
import { map } from './en/map';
import { dashboards } from './en/dashboards';
import { rules } from './en/rules';
import { alerts } from './en/alerts';
import { integrations } from './en/integrations';
import { networks } from './en/networks';
import { gateways } from './en/gateways';
import { connect } from './en/connect';
import { userAgent } from './en/userAgent';

/**
 * The console's message catalogue, English: one file per page or part under `en/`, the same under
 * `de/` typed by this shape, so a text missing in German is a type error (and `i18n.spec.ts` fails
 * on it too, and on a placeholder one language has and the other lacks). Keys in code are checked
 * against it as well (i18next's CustomTypeOptions, `i18next.d.ts`).
 */
export const en = {
  shell,
  time,
  overview,
  devices,
  fences,
  tokens,
  common,
  codecs,
  auth,
  cameraTraps,
  account,
  organisations,
  commands,
  device,
  audit,
  admin,
  importDevices,
  map,
  dashboards,
  rules,
  alerts,
  integrations,
  networks,
  gateways,
  connect,
  userAgent,
};

/** Every language's catalogue has exactly this shape: the same keys, strings for strings. */
export type Messages = DeepStrings<typeof en>;
type DeepStrings<T> = { [K in keyof T]: T[K] extends string ? string : DeepStrings<T[K]> };
