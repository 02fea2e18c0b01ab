import type { Messages } from '../messages';

export const map: Messages['map'] = {
  title: 'Karte',
  placed_one: '{{count, number}} von {{devices}} hat eine Position.',
  placed_other: '{{count, number}} von {{devices}} haben eine Position.',
  loading: 'Geräte werden geladen',
  label: 'Jedes Gerät mit Position',
  content: 'alle Geräte',
  listTitle: 'Geräte auf der Karte',
  listed: 'Die ersten {{shown, number}} sind aufgeführt; alle sind auf der Karte.',
};
