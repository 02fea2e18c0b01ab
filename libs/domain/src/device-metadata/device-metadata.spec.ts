import { NO_MEASUREMENTS } from '../families/decoder';
import { applyUplinks, type DeviceValues, isNewer, latestOffered, type MetadataUplink, uplinkOffer } from './device-metadata';

const t = (s: number) => new Date(Date.UTC(2026, 4, 1, 12, 0, s));
const EMPTY: DeviceValues = {
  activityFirst: null,
  activityLast: null,
  dataFirst: null,
  dataLast: null,
  batteryVoltage: null,
  batteryPercent: null,
  batteryAt: null,
  temperatureDc: null,
  temperatureAt: null,
  lat: null,
  lon: null,
  alt: null,
  positionAt: null,
  firmwareVersion: null,
  firmwareAt: null,
  signalDbm: null,
  signalPercent: null,
  signalAt: null,
};

function uplink(at: number, m: Partial<typeof NO_MEASUREMENTS> = {}, rssi: number | null = null): MetadataUplink {
  const measurements = { ...NO_MEASUREMENTS, ...m };
  return { receivedAt: t(at), rssi, measurements, ...uplinkOffer({ valid: true, measurements, rssi }) };
}

describe('what an uplink offers a device', () => {
  it('counts as data only when valid with a measurement; temperature in tenths; a position needs both coordinates', () => {
    const measurements = { ...NO_MEASUREMENTS, temperature: 21.46, lat: 52 };
    expect(uplinkOffer({ valid: true, measurements, rssi: -120 })).toEqual({ hasData: true, temperatureDc: 215, hasPosition: false, signalPercent: 0 });
    expect(uplinkOffer({ valid: false, measurements, rssi: null })).toMatchObject({ hasData: false, signalPercent: null });
    expect(uplinkOffer({ valid: true, measurements: NO_MEASUREMENTS, rssi: null }).hasData).toBe(false);
  });
});

describe('"newer"', () => {
  it('is a moment no earlier than the device’s value, and anything over no value', () => {
    expect(isNewer(t(2), t(1))).toBe(true);
    expect(isNewer(t(1), t(1))).toBe(true);
    expect(isNewer(t(0), t(1))).toBe(false);
    expect(isNewer(t(0), null)).toBe(true);
    expect(isNewer(null, null)).toBe(false);
  });

  it('picks the latest offered value of a batch, the later of two at the same moment', () => {
    const batch = [uplink(5, { temperature: 1 }), uplink(9), uplink(5, { temperature: 2 }), uplink(3, { temperature: 3 })];
    expect(latestOffered(batch, (u) => u.measurements.temperature)).toEqual({ value: 2, at: t(5) });
    expect(latestOffered(batch, (u) => u.measurements.humidity)).toEqual({ value: null, at: null });
  });
});

describe('a device after a batch of uplinks', () => {
  it('takes each value from the newest uplink offering it, with its moment', () => {
    const d = applyUplinks(EMPTY, [
      uplink(1, { battery_voltage: 3.6, battery_percent: 80, lat: 52, lon: 5, alt: 3, firmware_version: '1.0' }, -80),
      uplink(2, { temperature: 20 }, null),
    ]);
    expect(d).toEqual({
      ...EMPTY,
      activityFirst: t(1),
      activityLast: t(2),
      dataFirst: t(1),
      dataLast: t(2),
      batteryVoltage: 3.6,
      batteryPercent: 80,
      batteryAt: t(1),
      temperatureDc: 200,
      temperatureAt: t(2),
      lat: 52,
      lon: 5,
      alt: 3,
      positionAt: t(1),
      firmwareVersion: '1.0',
      firmwareAt: t(1),
      // The latest uplink carried no radio data: the signal is the last known one.
      signalDbm: -80,
      signalPercent: uplinkOffer({ valid: true, measurements: NO_MEASUREMENTS, rssi: -80 }).signalPercent,
      signalAt: t(1),
    });
  });

  it('keeps the last known signal when a later uplink carries no radio data, and takes the next one that does', () => {
    const heard = applyUplinks(EMPTY, [uplink(1, {}, -90)]);
    const silent = applyUplinks(heard, [uplink(2, { temperature: 20 }, null)]);
    expect(silent).toMatchObject({ signalDbm: -90, signalAt: t(1), activityLast: t(2) });
    expect(applyUplinks(silent, [uplink(3, {}, -60)])).toMatchObject({ signalDbm: -60, signalAt: t(3) });
    // A late uplink with radio data, older than the known signal, does not replace it.
    expect(applyUplinks(silent, [uplink(0, {}, -50)])).toMatchObject({ signalDbm: -90, signalAt: t(1) });
  });

  it('never moves a value backwards for a late uplink, but widens the activity span', () => {
    const now = applyUplinks(EMPTY, [uplink(10, { temperature: 20, lat: 1, lon: 2 }, -70)]);
    const late = applyUplinks(now, [uplink(5, { temperature: 9, lat: 7, lon: 8, alt: 9 }, -100)]);
    expect(late).toEqual({ ...now, activityFirst: t(5), dataFirst: t(5) });
  });

  it('moves a position as one, an absent altitude included', () => {
    const before = applyUplinks(EMPTY, [uplink(1, { lat: 1, lon: 2, alt: 3 })]);
    expect(applyUplinks(before, [uplink(2, { lat: 4, lon: 5 })])).toMatchObject({ lat: 4, lon: 5, alt: null, positionAt: t(2) });
  });

  it('changes nothing for an empty batch', () => {
    expect(applyUplinks(EMPTY, [])).toBe(EMPTY);
  });
});
