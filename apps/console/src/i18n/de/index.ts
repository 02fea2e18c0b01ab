import type { Messages } from '../messages';
import { overview } from './overview';
import { shell } from './shell';
import { time } from './time';
import { devices } from './devices';
import { fences } from './fences';
import { tokens } from './tokens';
import { common } from './common';
import { codecs } from './codecs';
import { auth } from './auth';
import { cameraTraps } from './cameraTraps';
import { account } from './account';
import { organisations } from './organisations';
import { commands } from './commands';
import { device } from './device';
import { audit } from './audit';
import { admin } from './admin';
import { importDevices } from './importDevices';
import { map } from './map';
import { dashboards } from './dashboards';
import { rules } from './rules';
import { alerts } from './alerts';
import { integrations } from './integrations';
import { networks } from './networks';
import { gateways } from './gateways';
import { connect } from './connect';
import { userAgent } from './userAgent';

/** The console's message catalogue, German: the English shape (messages.ts), every text translated. */
export const de: Messages = {
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
