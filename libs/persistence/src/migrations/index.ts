import { Foundation1763769600000 } from './1763769600000-foundation';
import { DevicesDatamodel1763856000000 } from './1763856000000-devices-datamodel';
import { IngestionCache1763942400000 } from './1763942400000-ingestion-cache';
import { AccountCodecs1764028800000 } from './1764028800000-account-codecs';
import { DeviceValueTimes1764115200000 } from './1764115200000-device-value-times';
import { Commands1764201600000 } from './1764201600000-commands';
import { Images1764288000000 } from './1764288000000-images';

/** Every migration in order. Append only: a migration that has run anywhere is never edited. */
export const MIGRATIONS = [Foundation1763769600000, DevicesDatamodel1763856000000, IngestionCache1763942400000, AccountCodecs1764028800000, DeviceValueTimes1764115200000, Commands1764201600000, Images1764288000000];
