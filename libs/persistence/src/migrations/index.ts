import { Foundation1763769600000 } from './1763769600000-foundation';
import { DevicesDatamodel1763856000000 } from './1763856000000-devices-datamodel';
import { IngestionCache1763942400000 } from './1763942400000-ingestion-cache';
import { AccountCodecs1764028800000 } from './1764028800000-account-codecs';
import { DeviceValueTimes1764115200000 } from './1764115200000-device-value-times';
import { Commands1764201600000 } from './1764201600000-commands';
import { Images1764288000000 } from './1764288000000-images';
import { ImagePredictions1795610000000 } from './1795610000000-image-predictions';
import { HttpJsonNetwork1795620000000 } from './1795620000000-http-json-network';
import { HostileInput1795700000000 } from './1795700000000-hostile-input';
import { IntegrationsAlerts1795712000000 } from './1795712000000-integrations-alerts';
import { DeviceSignalTime1795720000000 } from './1795720000000-device-signal-time';
import { SeriesRollup1795730000000 } from './1795730000000-series-rollup';
import { FenceRevision1795745000000 } from './1795745000000-fence-revision';
import { CodecExamples1795750000000 } from './1795750000000-codec-examples';
import { SessionClient1795760000000 } from './1795760000000-session-client';
import { DeviceLinkMargin1795770000000 } from './1795770000000-device-link-margin';
import { UplinkPayloadProblems1795771000000 } from './1795771000000-uplink-payload-problems';
import { SimulatedNetworkQueue1795772000000 } from './1795772000000-simulated-network-queue';
import { EventCapturePlan1795780000000 } from './1795780000000-event-capture-plan';
import { IngestTargetNotices1795790000000 } from './1795790000000-ingest-target-notices';
import { CommandsWaitingIndex1795800000000 } from './1795800000000-commands-waiting-index';
import { DeliveryFairness1795810000000 } from './1795810000000-delivery-fairness';
import { EmailVerification1795820000000 } from './1795820000000-email-verification';
import { MailLimits1795820000001 } from './1795820000001-mail-limits';
import { TimePartitions1795830000000 } from './1795830000000-time-partitions';
import { AuditLog1795840000000 } from './1795840000000-audit-log';
import { Organisations1795850000000 } from './1795850000000-organisations';
import { OidcIdentities1795860000000 } from './1795860000000-oidc-identities';
import { Dashboards1795870000000 } from './1795870000000-dashboards';

/** Every migration in order. Append only: a migration that has run anywhere is never edited. */
export const MIGRATIONS = [
  Foundation1763769600000,
  DevicesDatamodel1763856000000,
  IngestionCache1763942400000,
  AccountCodecs1764028800000,
  DeviceValueTimes1764115200000,
  Commands1764201600000,
  Images1764288000000,
  ImagePredictions1795610000000,
  HttpJsonNetwork1795620000000,
  HostileInput1795700000000,
  IntegrationsAlerts1795712000000,
  DeviceSignalTime1795720000000,
  SeriesRollup1795730000000,
  FenceRevision1795745000000,
  CodecExamples1795750000000,
  SessionClient1795760000000,
  DeviceLinkMargin1795770000000,
  UplinkPayloadProblems1795771000000,
  SimulatedNetworkQueue1795772000000,
  EventCapturePlan1795780000000,
  IngestTargetNotices1795790000000,
  CommandsWaitingIndex1795800000000,
  DeliveryFairness1795810000000,
  EmailVerification1795820000000,
  MailLimits1795820000001,
  TimePartitions1795830000000,
  AuditLog1795840000000,
  Organisations1795850000000,
  OidcIdentities1795860000000,
  Dashboards1795870000000,
];
