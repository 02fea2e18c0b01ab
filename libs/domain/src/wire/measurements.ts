/**
 * Measurements a decoder can derive; they become the uplink record's and data rows' members. Here,
 * in wire/, because they are members of the interface: the decoders (families/) produce them, the
 * uplink mappings and the device-metadata rules read them.
 */
export interface Measurements {
  temperature: number | null;
  humidity: number | null;
  battery_voltage: number | null;
  battery_percent: number | null;
  lat: number | null;
  lon: number | null;
  alt: number | null;
  firmware_version: string | null;
}
