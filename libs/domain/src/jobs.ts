/**
 * Queue and job names with their payloads: the one contract between the api (which enqueues) and
 * the worker (which processes). NEVER RENAME a queue or a job: jobs already stored under the old
 * name would never be processed.
 */
export const QUEUES = {
  mail: 'mail',
  maintenance: 'maintenance',
  devicePurge: 'device-purge',
  deviceRedecode: 'device-redecode',
  cacheRebuild: 'cache-rebuild',
  commandDispatch: 'command-dispatch',
  commandRequeue: 'command-requeue',
  imageThumbnail: 'image-thumbnail',
  imagePurge: 'image-purge',
  authPasswordReset: 'auth-password-reset',
  imageReap: 'image-reap',
  alertsOfflineCheck: 'alerts-offline-check',
  alertMail: 'alert-mail',
  integrationsMaintenance: 'integrations-maintenance',
  timeseriesMaintenance: 'timeseries-maintenance',
  authEmailVerification: 'auth-email-verification',
  alertsMailDigest: 'alerts-mail-digest',
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export interface JobPayloads {
  /** An e-mail to deliver (password reset, e-mail verification, an address change's notice). */
  'mail.send': { to: string; subject: string; text: string };
  /** Removes expired sessions, reset tokens and rate-limit buckets. Repeats on a schedule. */
  'maintenance.purge-expired': Record<string, never>;
  /** Deletes a removed device's history in batches, then the device row. */
  'device.purge': { deviceUid: number };
  /** Decodes the device's stored uplinks again with its current decoder (after a decoder change). */
  'device.redecode': { deviceUid: number; decoderRef: number | null };
  /** Renders a device's data rows into its cache entry for the current version. */
  'cache.rebuild': { deviceUid: number };
  /** Hands a Created command to its device's network. Job id: commandDispatchJobId. */
  'command.dispatch': { commandUid: number };
  /** Re-enqueues Created commands whose dispatch job was lost (a crash between commit and enqueue). Repeats. */
  'command.requeue': Record<string, never>;
  /** Makes an uploaded image's thumbnail and sets its status (2 processing, then 4/5, or 3). */
  'image.thumbnail': { imageUid: number };
  /** Removes a deleted image's bytes from the image store. */
  'image.purge': { imageUid: number };
  /**
   * A password reset asked for this address: when an account has it, issue the account's one live
   * reset token (replacing any other) and mail it. Enqueued whatever the address, so that the
   * request does the same work for a known and an unknown one.
   */
  'auth.password-reset': { email: string };
  /** Removes uploads that never completed (a process killed mid-upload). Repeats on a schedule. */
  'image.reap': Record<string, never>;
  /**
   * Raises offline alerts for the rule states that came due (and re-arms those whose device spoke
   * meanwhile); enqueues the alert mails still waiting. Repeats every OFFLINE_CHECK_SECONDS.
   */
  'alerts.offline-check': Record<string, never>;
  /** Mails an alert raised or cleared to its account. Job id: alertMailJobId. */
  'alert.mail': { alertUid: string; action: 'raised' | 'cleared' };
  /** Bounds each integration's waiting deliveries and removes events past their retention. Repeats. */
  'integrations.maintenance': Record<string, never>;
  /**
   * Keeps time partitions ready ahead of the data, applies the retention policies (raw uplinks,
   * rollups, images) and rolls up uplinks stored before the rollups existed. Repeats.
   */
  'timeseries.maintain': Record<string, never>;
  /**
   * Issues the account's one live e-mail verification token (replacing any other) for the address it
   * has to verify — the pending one, else its unverified current one — and mails it there, within
   * the hourly limit of verification mails per address. Nothing when there is nothing to verify.
   */
  'auth.email-verification': { accountId: number };
  /** Mails each recipient one digest of the alert mails held back over the hourly limits, once the hour ended. Repeats. */
  'alerts.mail-digest': Record<string, never>;
}
export type JobName = keyof JobPayloads;

/** Which queue carries each job: one queue per job, so that each queue has one processor. */
export const JOB_QUEUE: { readonly [J in JobName]: QueueName } = {
  'mail.send': QUEUES.mail,
  'maintenance.purge-expired': QUEUES.maintenance,
  'device.purge': QUEUES.devicePurge,
  'device.redecode': QUEUES.deviceRedecode,
  'cache.rebuild': QUEUES.cacheRebuild,
  'command.dispatch': QUEUES.commandDispatch,
  'command.requeue': QUEUES.commandRequeue,
  'image.thumbnail': QUEUES.imageThumbnail,
  'image.purge': QUEUES.imagePurge,
  'auth.password-reset': QUEUES.authPasswordReset,
  'image.reap': QUEUES.imageReap,
  'alerts.offline-check': QUEUES.alertsOfflineCheck,
  'alert.mail': QUEUES.alertMail,
  'integrations.maintenance': QUEUES.integrationsMaintenance,
  'timeseries.maintain': QUEUES.timeseriesMaintenance,
  'auth.email-verification': QUEUES.authEmailVerification,
  'alerts.mail-digest': QUEUES.alertsMailDigest,
};

/** One dispatch job per command: a re-enqueue of a waiting or running one is a no-op. */
export const commandDispatchJobId = (commandUid: number) => `command.dispatch-${commandUid}`;

/**
 * The job id of a device's cache rebuild for one version: requests for the same version collapse,
 * and an invalidation while a rebuild runs gets a job of its own (its version is new).
 */
export const cacheRebuildJobId = (deviceUid: number, version: number) => `cache.rebuild-${deviceUid}-v${version}`;

/** One thumbnail job per image: repeated uploads of an image still being received collapse. */
export const imageThumbnailJobId = (imageUid: number) => `image.thumbnail-${imageUid}`;

/** One mail per alert and action: the offline check's re-enqueue of a waiting one is a no-op. */
export const alertMailJobId = (alertUid: string, action: 'raised' | 'cleared') => `alert.mail-${alertUid}-${action}`;

export const ALL_JOB_NAMES = Object.keys(JOB_QUEUE) as JobName[];
