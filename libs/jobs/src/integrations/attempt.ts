/** What one attempt to hand an event to an integration came to. */
export interface AttemptOutcome {
  ok: boolean;
  /** The receiver's HTTP status (webhooks); null for MQTT or when no answer came. */
  status: number | null;
  latencyMs: number;
  error: string | null;
  /** The receiver said the endpoint is gone for good (HTTP 410): the integration is disabled. */
  gone: boolean;
}

/** One line of an error, never a stack. */
export const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 300);
