import { type DeviceMetaWire, isOnline } from '@dts/domain';
import type { MapMarker } from '../components/MapView';

/** Colours of a device's marker: green heard from within the online threshold, red otherwise. */
export const ONLINE_COLOUR = '#15803d';
export const OFFLINE_COLOUR = '#b91c1c';

export interface PlacedDevice {
  d: DeviceMetaWire;
  lat: number;
  lon: number;
}

/** The devices with a position: the latest reported one, else the installation position. */
export function placedDevices(devices: readonly DeviceMetaWire[]): PlacedDevice[] {
  return devices
    .map((d) => ({ d, lat: d.lat ?? d.installation_lat, lon: d.lon ?? d.installation_lon }))
    .filter((x): x is PlacedDevice => x.lat !== null && x.lon !== null);
}

/** Each placed device's marker, labelled with its name and state in the given words ("online", "offline"). */
export function deviceMarkers(placed: readonly PlacedDevice[], threshold: number, now: number, words: { online: string; offline: string }): MapMarker[] {
  return placed.map(({ d, lat, lon }) => {
    const online = isOnline(d.ts_activity_last_unix, threshold, now);
    return {
      id: d.devEUI,
      lat,
      lon,
      label: `${d.label || d.devEUI} (${online ? words.online : words.offline})`,
      color: online ? ONLINE_COLOUR : OFFLINE_COLOUR,
    };
  });
}
