import type { Measurements } from '../wire/measurements';
import { signalPercent } from '../wire/device';

/**
 * How uplinks move a device's metadata (docs/api.md §11): the rules the ingestion statement
 * carries out in SQL (libs/persistence uplinks/store-uplinks.sql.ts), written here as plain
 * functions so that they can be read and tested; an integration test holds the two together.
 */

/** What one uplink offers its device's metadata, worked out once at ingestion. */
export interface UplinkOffer {
  /** The uplink counts as data (ts_data_*): decoded validly, with at least one measurement. */
  hasData: boolean;
  /** The temperature in tenths of a degree (the metadata's unit). */
  temperatureDc: number | null;
  /** A decoded position: latitude and longitude both present. */
  hasPosition: boolean;
  signalPercent: number | null;
}

export function uplinkOffer(u: { valid: boolean; measurements: Measurements; rssi: number | null }): UplinkOffer {
  const m = u.measurements;
  return {
    hasData: u.valid && Object.values(m).some((v) => v !== null),
    temperatureDc: m.temperature === null ? null : Math.round(m.temperature * 10),
    hasPosition: m.lat !== null && m.lon !== null,
    signalPercent: u.rssi === null ? null : signalPercent(u.rssi),
  };
}

/** One new uplink of a batch, as the metadata rules read it. */
export interface MetadataUplink extends UplinkOffer {
  receivedAt: Date;
  rssi: number | null;
  measurements: Measurements;
}

/** The device's metadata that uplinks move, each value with the moment it describes. */
export interface DeviceValues {
  activityFirst: Date | null;
  activityLast: Date | null;
  dataFirst: Date | null;
  dataLast: Date | null;
  batteryVoltage: number | null;
  batteryPercent: number | null;
  batteryAt: Date | null;
  temperatureDc: number | null;
  temperatureAt: Date | null;
  lat: number | null;
  lon: number | null;
  alt: number | null;
  positionAt: Date | null;
  firmwareVersion: string | null;
  firmwareAt: Date | null;
  signalDbm: number | null;
  signalPercent: number | null;
  signalAt: Date | null;
}

/** A value with the moment it describes; `at` is null when nothing offered one. */
export interface Timed<T> {
  value: T | null;
  at: Date | null;
}

/**
 * The newest value among a batch's uplinks that offer one: the latest reception wins, and of two
 * received at the same moment, the later in the batch.
 */
export function latestOffered<T>(
  uplinks: readonly MetadataUplink[],
  pick: (u: MetadataUplink) => T | null,
  offers = (u: MetadataUplink) => pick(u) !== null,
): Timed<T> {
  let best: MetadataUplink | null = null;
  for (const u of uplinks) if (offers(u) && (best === null || u.receivedAt >= best.receivedAt)) best = u;
  return best === null ? { value: null, at: null } : { value: pick(best), at: best.receivedAt };
}

/**
 * What "newer" means for a device's value: an offered value replaces the device's when it
 * describes a moment no earlier than the device's value does. A late uplink (stored after a newer
 * one) never moves a value backwards; one at the same moment, delivered later, wins.
 */
export function isNewer(offeredAt: Date | null, currentAt: Date | null): offeredAt is Date {
  return offeredAt !== null && (currentAt === null || offeredAt >= currentAt);
}

const earliest = (a: Date | null, b: Date | null) => (a === null ? b : b === null ? a : a <= b ? a : b);
const latest = (a: Date | null, b: Date | null) => (a === null ? b : b === null ? a : a >= b ? a : b);

/** The device's values after a batch of its new uplinks (stored in one transaction). */
export function applyUplinks(d: DeviceValues, uplinks: readonly MetadataUplink[]): DeviceValues {
  if (uplinks.length === 0) return d;
  const times = uplinks.map((u) => u.receivedAt);
  const data = uplinks.filter((u) => u.hasData).map((u) => u.receivedAt);
  const voltage = latestOffered(uplinks, (u) => u.measurements.battery_voltage);
  const percent = latestOffered(uplinks, (u) => u.measurements.battery_percent);
  const temperature = latestOffered(uplinks, (u) => u.temperatureDc);
  const position = latestOffered(
    uplinks,
    (u) => u.measurements,
    (u) => u.hasPosition,
  );
  const firmware = latestOffered(uplinks, (u) => u.measurements.firmware_version);
  // The last known signal: the newest uplink that carried radio data; dBm and percent move together.
  const radio = latestOffered(
    uplinks,
    (u) => u,
    (u) => u.rssi !== null,
  );
  const radioWins = isNewer(radio.at, d.signalAt);
  return {
    activityFirst: earliest(d.activityFirst, times.reduce(earliest, null)),
    activityLast: latest(d.activityLast, times.reduce(latest, null)),
    dataFirst: earliest(d.dataFirst, data.reduce(earliest, null)),
    dataLast: latest(d.dataLast, data.reduce(latest, null)),
    // Voltage and percent share one time: the voltage's moves it.
    batteryVoltage: isNewer(voltage.at, d.batteryAt) ? voltage.value : d.batteryVoltage,
    batteryPercent: isNewer(percent.at, d.batteryAt) ? percent.value : d.batteryPercent,
    batteryAt: isNewer(voltage.at, d.batteryAt) ? voltage.at : d.batteryAt,
    temperatureDc: isNewer(temperature.at, d.temperatureAt) ? temperature.value : d.temperatureDc,
    temperatureAt: isNewer(temperature.at, d.temperatureAt) ? temperature.at : d.temperatureAt,
    // A position moves as one: latitude, longitude and altitude (even an absent one) together.
    lat: isNewer(position.at, d.positionAt) ? (position.value?.lat ?? null) : d.lat,
    lon: isNewer(position.at, d.positionAt) ? (position.value?.lon ?? null) : d.lon,
    alt: isNewer(position.at, d.positionAt) ? (position.value?.alt ?? null) : d.alt,
    positionAt: isNewer(position.at, d.positionAt) ? position.at : d.positionAt,
    firmwareVersion: isNewer(firmware.at, d.firmwareAt) ? firmware.value : d.firmwareVersion,
    firmwareAt: isNewer(firmware.at, d.firmwareAt) ? firmware.at : d.firmwareAt,
    signalDbm: radioWins ? (radio.value?.rssi ?? null) : d.signalDbm,
    signalPercent: radioWins ? (radio.value?.signalPercent ?? null) : d.signalPercent,
    signalAt: radioWins ? radio.at : d.signalAt,
  };
}

/**
 * A device's own report of its battery level (a network's status message, docs/api.md §5), by the
 * uplinks' rule: the percent moves when its moment is no earlier than the device's battery moment,
 * which only a voltage moves. Carried out by DeviceEventsRepository.batteryPercent (libs/persistence).
 */
export function applyDeviceStatus(d: DeviceValues, at: Date, batteryPercent: number): DeviceValues {
  return isNewer(at, d.batteryAt) ? { ...d, batteryPercent } : d;
}

/**
 * The link margin a network's status message reports (dB), with the moment it describes: it replaces
 * the device's when no earlier than the device's (a late status never moves it backwards). Carried
 * out by DeviceEventsRepository.status (libs/persistence).
 */
export function applyLinkMargin(d: Timed<number>, at: Date, marginDb: number): Timed<number> {
  return isNewer(at, d.at) ? { value: marginDb, at } : d;
}

/** A join (a network's message, docs/api.md §5): the activity times span its moment. Carried out by DeviceEventsRepository.activity. */
export function applyDeviceActivity(d: DeviceValues, at: Date): DeviceValues {
  return { ...d, activityFirst: earliest(d.activityFirst, at), activityLast: latest(d.activityLast, at) };
}
