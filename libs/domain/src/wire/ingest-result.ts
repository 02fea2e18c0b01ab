import type { ErrorCode } from '../envelope';

/** An item of a delivery that was not stored (CONTRACT §11); the rest of the delivery was. */
export interface IngestRejectionWire {
  /** Position of the item in the delivery (0 for a single message). */
  index: number;
  devEUI: string | null;
  code: Extract<ErrorCode, 'VALIDATION_FAILED' | 'PAYLOAD_TOO_LARGE' | 'NOT_FOUND'>;
  message: string;
}

/** Answer (202) of every ingestion route. */
export interface IngestResultWire {
  accepted: number;
  duplicates: number;
  rejected: IngestRejectionWire[];
}
