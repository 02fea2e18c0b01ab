import type { Messages } from '../messages';

export const time: Messages['time'] = {
  never: 'nie',
  justNow: 'gerade eben',
  ago: { d: 'vor {{count}} T.', h: 'vor {{count}} Std.', min: 'vor {{count}} Min.' },
  in: { d: 'in {{count}} T.', h: 'in {{count}} Std.', min: 'in {{count}} Min.' },
  duration: { d: '{{n}} T.', h: '{{n}} Std.', min: '{{n}} Min.', s: '{{n}} s', two: '{{first}} {{second}}' },
};
