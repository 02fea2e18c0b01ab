/** The map of every device (pages/MapOverview.tsx). */
export const map = {
  title: 'Map',
  placed_one: '{{count, number}} of {{devices}} has a position.',
  placed_other: '{{count, number}} of {{devices}} have a position.',
  loading: 'Loading devices',
  label: 'Every device with a position',
  content: 'every device',
  listTitle: 'Devices on the map',
  listed: 'The first {{shown, number}} are listed; all are on the map.',
};
