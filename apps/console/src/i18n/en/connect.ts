/** A device's Connect tab (pages/device/ConnectTab.tsx); the set-ups themselves are under `networks`. */
export const connect = {
  title: 'Getting this device’s data in',
  intro:
    'Uplinks come from your network server (The Things Stack or ChirpStack), from any server that posts JSON, or from a script. Each sends them to this service with a key.',
  commandsOperator:
    'Commands go out through the device’s network, now <strong>{{network}}</strong>: change it in the device’s <settings>Settings</settings>; your own networks are on the <networks>Networks</networks> page.',
  commands: 'Commands go out through the device’s network, now <strong>{{network}}</strong>. The networks are on the <networks>Networks</networks> page.',
  keyName: 'Ingest key for {{device}}',
  latest: {
    title: 'Latest uplinks',
    waiting: 'Waiting for the first uplink… It appears here as soon as it arrives.',
  },
  rest: 'A script or your own server (REST)',
  httpJson: '{{name}} (HTTP JSON)',
  simulate: {
    title: 'Simulate an uplink',
    intro:
      'Goes through the same ingestion as a real uplink: stored, decoded by the device’s decoder, shown live, checked by rules and sent to integrations. It is recorded under the network “Simulated”, so you can tell it apart.',
    port: 'Port',
    encoding: 'Encoding',
    payload: 'Payload',
    payloadHint: 'At most {{max, number}} bytes.',
    rssi: 'RSSI in dBm (optional)',
    snr: 'SNR in dB (optional)',
    submit: 'Send simulated uplink',
    stored: 'Stored: the uplink is in the list below and on the Live tab.',
    duplicate: 'This uplink was stored before.',
    badPort: 'A port from 0 to 255.',
    noPayload: 'The payload, in the encoding chosen.',
    badNumber: 'A number from {{min, number}} to {{max, number}}.',
  },
};
