/** The Gateways page (pages/Gateways.tsx). */
export const gateways = {
  title: 'Gateways',
  subtitle: 'The gateways that heard your devices, from what your networks report with each uplink.',
  loading: 'Loading gateways',
  empty: {
    title: 'No gateways yet',
    text: 'Gateways appear here by themselves once uplinks arrive from The Things Stack or ChirpStack: each uplink names the gateways that heard it, with their signal and, when the network knows it, their position. A REST uplink can list them too, in its <code>gateways</code> member. Uplinks from the simulated network have none.',
    connect: '<networks>Connect a network</networks> to get started.',
  },
  count_one: '{{count, number}} gateway',
  count_other: '{{count, number}} gateways',
  caption: 'Gateways that heard your devices',
  columns: {
    gateway: 'Gateway',
    network: 'Network',
    seen: 'Last seen',
    uplinks: 'Uplinks (24 h)',
    rssi: 'Mean RSSI (24 h)',
    position: 'Position',
    notReported: 'not reported',
  },
  map: {
    title: 'Map',
    label: 'Positions of the gateways',
    content: 'every gateway',
    marker_one: '{{id}}: {{count, number}} uplink in 24 hours',
    marker_other: '{{id}}: {{count, number}} uplinks in 24 hours',
    none: 'No gateway has reported a position.',
    unplaced_one: 'One gateway has not reported a position: it is in the table only.',
    unplaced_other: '{{count, number}} gateways have not reported a position: they are in the table only.',
  },
};
