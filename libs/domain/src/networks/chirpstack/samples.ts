/**
 * An uplink body exactly as the network posts it, for documentation and tests: what the ingest
 * parser is proven against.
 */

/** As ChirpStack v4's HTTP integration posts an `up` event. */
export const CHIRPSTACK_UPLINK_SAMPLE = {
  deduplicationId: '3ac7e3c4-4401-4b8d-9386-a5c902f9202d',
  time: '2026-05-01T12:00:00.456Z',
  deviceInfo: {
    tenantId: 't',
    tenantName: 'T',
    applicationId: 'a',
    applicationName: 'A',
    deviceProfileId: 'p',
    deviceProfileName: 'P',
    deviceName: 'sensor',
    devEui: '0101010101010101',
    tags: {},
  },
  devAddr: '00189440',
  adr: true,
  dr: 5,
  fCnt: 10,
  fPort: 1,
  confirmed: false,
  data: 'AWcA5Q==',
  rxInfo: [
    {
      gatewayId: '0016c001f153a14c',
      uplinkId: 4217106255,
      rssi: -36,
      snr: 10.5,
      channel: 2,
      location: { latitude: 52.2, longitude: 5.2 },
      context: 'EFwMtA==',
      metadata: {},
      crcStatus: 'CRC_OK',
    },
  ],
  txInfo: { frequency: 868500000, modulation: { lora: { bandwidth: 125000, spreadingFactor: 7, codeRate: 'CR_4_5' } } },
};
