/**
 * An uplink body exactly as the network posts it, for documentation and tests: what the ingest
 * parser is proven against.
 */

/** As The Things Stack v3 posts it (trimmed of nothing but identifiers). */
export const TTN_UPLINK_SAMPLE = {
  end_device_ids: {
    device_id: 'eui-70b3d57ed0001234',
    application_ids: { application_id: 'farm' },
    dev_eui: '70B3D57ED0001234',
    join_eui: '0000000000000000',
    dev_addr: '260B1234',
  },
  correlation_ids: ['gs:uplink:01HX0000000000000000000000', 'as:up:01HX0000000000000000000001', 'rpc:/ttn.lorawan.v3.AppAs/SimulateUplink:abc'],
  received_at: '2026-05-01T12:00:00.123456789Z',
  uplink_message: {
    session_key_id: 'AYc=',
    f_port: 2,
    f_cnt: 17,
    frm_payload: 'A2cBEAVnAP8=',
    rx_metadata: [
      {
        gateway_ids: { gateway_id: 'gw-north', eui: 'B827EBFFFE000001' },
        time: '2026-05-01T12:00:00.1Z',
        timestamp: 1234,
        rssi: -97,
        channel_rssi: -97,
        snr: 7.25,
        location: { latitude: 52.1, longitude: 5.1, altitude: 3, source: 'SOURCE_REGISTRY' },
      },
      { gateway_ids: { gateway_id: 'gw-south' }, rssi: -112, snr: -3.5 },
    ],
    settings: { data_rate: { lora: { bandwidth: 125000, spreading_factor: 9, coding_rate: '4/5' } }, frequency: '868100000' },
    received_at: '2026-05-01T12:00:00.120Z',
    consumed_airtime: '0.164864s',
    locations: {
      user: { latitude: 1, longitude: 1 },
      geolocation: { latitude: 52.09, longitude: 5.12, accuracy: 150, source: 'SOURCE_LORA_RSSI_GEOLOCATION' },
    },
    network_ids: { net_id: '000013', tenant_id: 'ttn' },
  },
  simulated: true,
};
