import type { Messages } from '../messages';

export const connect: Messages['connect'] = {
  title: 'Daten dieses Geräts empfangen',
  intro:
    'Uplinks kommen von Ihrem Netzwerkserver (The Things Stack oder ChirpStack), von einem beliebigen Server, der JSON sendet, oder von einem Skript. Jeder sendet sie mit einem Schlüssel an diesen Dienst.',
  commandsOperator:
    'Befehle werden über das Netzwerk des Geräts gesendet, derzeit <strong>{{network}}</strong>: Ändern Sie es in den <settings>Einstellungen</settings> des Geräts; Ihre eigenen Netzwerke finden Sie auf der Seite <networks>Netzwerke</networks>.',
  commands:
    'Befehle werden über das Netzwerk des Geräts gesendet, derzeit <strong>{{network}}</strong>. Die Netzwerke finden Sie auf der Seite <networks>Netzwerke</networks>.',
  keyName: 'Ingest-Schlüssel für {{device}}',
  latest: {
    title: 'Neueste Uplinks',
    waiting: 'Warten auf den ersten Uplink… Er erscheint hier, sobald er eintrifft.',
  },
  rest: 'Ein Skript oder Ihr eigener Server (REST)',
  httpJson: '{{name}} (HTTP JSON)',
  simulate: {
    title: 'Uplink simulieren',
    intro:
      'Durchläuft dieselbe Verarbeitung wie ein echter Uplink: gespeichert, vom Decoder des Geräts dekodiert, live angezeigt, von Regeln geprüft und an Integrationen gesendet. Er wird unter dem Netzwerk „Simulated“ erfasst, sodass Sie ihn unterscheiden können.',
    port: 'Port',
    encoding: 'Kodierung',
    payload: 'Payload',
    payloadHint: 'Höchstens {{max, number}} Byte.',
    rssi: 'RSSI in dBm (optional)',
    snr: 'SNR in dB (optional)',
    submit: 'Simulierten Uplink senden',
    stored: 'Gespeichert: Der Uplink steht in der Liste unten und auf dem Tab „Live“.',
    duplicate: 'Dieser Uplink wurde bereits gespeichert.',
    badPort: 'Ein Port von 0 bis 255.',
    noPayload: 'Die Payload, in der gewählten Kodierung.',
    badNumber: 'Eine Zahl von {{min, number}} bis {{max, number}}.',
  },
};
