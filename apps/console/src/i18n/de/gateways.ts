import type { Messages } from '../messages';

export const gateways: Messages['gateways'] = {
  title: 'Gateways',
  subtitle: 'Die Gateways, die Ihre Geräte empfangen haben, nach den Angaben Ihrer Netzwerke zu jedem Uplink.',
  loading: 'Gateways werden geladen',
  empty: {
    title: 'Noch keine Gateways',
    text: 'Gateways erscheinen hier von selbst, sobald Uplinks von The Things Stack oder ChirpStack eintreffen: Jeder Uplink nennt die Gateways, die ihn empfangen haben, mit ihrem Signal und, wenn das Netzwerk sie kennt, ihrer Position. Ein REST-Uplink kann sie ebenfalls aufführen, in seinem Feld <code>gateways</code>. Uplinks aus dem simulierten Netzwerk haben keine.',
    connect: '<networks>Verbinden Sie ein Netzwerk</networks>, um zu beginnen.',
  },
  count_one: '{{count, number}} Gateway',
  count_other: '{{count, number}} Gateways',
  caption: 'Gateways, die Ihre Geräte empfangen haben',
  columns: {
    gateway: 'Gateway',
    network: 'Netzwerk',
    seen: 'Zuletzt gesehen',
    uplinks: 'Uplinks (24 h)',
    rssi: 'Mittlerer RSSI (24 h)',
    position: 'Position',
    notReported: 'nicht gemeldet',
  },
  map: {
    title: 'Karte',
    label: 'Positionen der Gateways',
    content: 'alle Gateways',
    marker_one: '{{id}}: {{count, number}} Uplink in 24 Stunden',
    marker_other: '{{id}}: {{count, number}} Uplinks in 24 Stunden',
    none: 'Kein Gateway hat eine Position gemeldet.',
    unplaced_one: 'Ein Gateway hat keine Position gemeldet: Es erscheint nur in der Tabelle.',
    unplaced_other: '{{count, number}} Gateways haben keine Position gemeldet: Sie erscheinen nur in der Tabelle.',
  },
};
