/** Downlink command (docs/api.md §15); the payload is returned in three encodings at once. */
export interface CommandWire {
  uid: number;
  time_stamp: string;
  status: CommandStatus;
  network: string;
  devEUI: string;
  confirmed: 0 | 1;
  port: number;
  payload_base64: string;
  payload_hex: string;
  payload_ASCII: string;
  /** Why the command failed (Failed only); null otherwise. */
  reason: string | null;
}

/** Order of the lifecycle: a status never moves back, and the last three are final. */
export const COMMAND_STATUS_RANK: Readonly<Record<CommandStatus, number>> = { Created: 0, Scheduled: 1, Sent: 2, Acknowledged: 3, Failed: 3, Cancelled: 3 };

/** Lifecycle (docs/api.md §6): Created → Scheduled → Sent → Acknowledged, or Failed / Cancelled. */
export const COMMAND_STATUSES = ['Created', 'Scheduled', 'Sent', 'Acknowledged', 'Failed', 'Cancelled'] as const;
export type CommandStatus = (typeof COMMAND_STATUSES)[number];

/** Not on the device yet (ours, or in the network's queue): what a cancellation can take back. */
export const WAITING_COMMAND_STATUSES: readonly CommandStatus[] = ['Created', 'Scheduled'];
export const isWaiting = (status: CommandStatus): boolean => WAITING_COMMAND_STATUSES.includes(status);

/** GET /user/device/command/{eui}: newest first, in keyset pages. */
export interface CommandsQuery {
  /** Only commands in these statuses (comma-separated in the query: `Created,Scheduled` is what has not left). */
  status?: readonly CommandStatus[];
  /** 1–1000; 100 when absent. */
  limit?: number;
  /** Commands listed after this uid (the last of the previous page). */
  before?: number;
}

/** DELETE /user/device/command/{eui}/{uid}: the command, cancelled. */
export interface CommandCancelledWire {
  uid: number;
  status: 'Cancelled';
}

/** DELETE /user/device/command/{eui}: every command that had not reached the device, cancelled or kept with why. */
export interface CommandsFlushedWire {
  devEUI: string;
  /** The uids cancelled, oldest first. */
  cancelled: number[];
  /** The ones that could not be: handed to the device meanwhile, refused by the network, or the network unreachable. */
  kept: CommandKeptWire[];
}

export interface CommandKeptWire {
  uid: number;
  status: CommandStatus;
  reason: string;
}

/** GET /user/device/command/{eui}/available: the named commands the device's encoder or codec takes. */
export interface AvailableCommandWire {
  name: string;
  description: string;
  /** FPort it is sent on; null when the device's codec decides. */
  port: number | null;
  /** Parameter schemas by name ({type, description, minimum?, maximum?}). */
  params: Record<string, unknown>;
}
