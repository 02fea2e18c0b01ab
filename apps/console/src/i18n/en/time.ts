/** Times and lengths of time as the console writes them (lib/format.ts). */
export const time = {
  never: 'never',
  justNow: 'just now',
  ago: { d: '{{count}} d ago', h: '{{count}} h ago', min: '{{count}} min ago' },
  in: { d: 'in {{count}} d', h: 'in {{count}} h', min: 'in {{count}} min' },
  /** A length of time in its two largest units (duration()): "3 d 4 h", "5 h 12 min", "42 s". */
  duration: { d: '{{n}} d', h: '{{n}} h', min: '{{n}} min', s: '{{n}} s', two: '{{first}} {{second}}' },
};
