import type { ErrorCode } from '../envelope';

/** An item of a delivery that was not stored (docs/api.md §11); the rest of the delivery was. */
export interface IngestRejectionWire {
  /** Position of the item in the delivery (0 for a single message). */
  index: number;
  devEUI: string | null;
  code: Extract<ErrorCode, 'VALIDATION_FAILED' | 'PAYLOAD_TOO_LARGE' | 'NOT_FOUND'>;
  message: string;
}

/** A network message that is neither an uplink nor a downlink's status (docs/api.md §5): what was done with it. */
export interface IngestEventWire {
  /** The network's name of the message: The Things Stack's message member, ChirpStack's `event`. */
  type: string;
  action: string;
}

/** Answer (202) of every ingestion route. */
export interface IngestResultWire {
  accepted: number;
  duplicates: number;
  rejected: IngestRejectionWire[];
  /** Present for messages that are neither uplinks nor a downlink's status: joins, statuses, positions, logs, the rest. */
  event?: IngestEventWire;
}
