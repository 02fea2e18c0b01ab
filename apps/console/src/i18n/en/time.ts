/** Times and lengths of time as the console writes them (lib/format.ts). */
export const time = {
  never: 'never',
  justNow: 'just now',
  ago: { d: '{{count}} d ago', h: '{{count}} h ago', min: '{{count}} min ago' },
  in: { d: 'in {{count}} d', h: 'in {{count}} h', min: 'in {{count}} min' },
};
