import type { Messages } from '../messages';

export const userAgent: Messages['userAgent'] = {
  unknown: 'Unbekannter Browser',
  browserOn: '{{browser}} auf {{system}}',
  aBrowserOn: 'Ein Browser auf {{system}}',
};
