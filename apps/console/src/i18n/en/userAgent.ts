/** A session's browser in plain words (lib/user-agent.ts, the account's sessions); browser and system names stay as they are. */
export const userAgent = {
  unknown: 'Unknown browser',
  browserOn: '{{browser}} on {{system}}',
  aBrowserOn: 'A browser on {{system}}',
};
