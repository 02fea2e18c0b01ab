/**
 * A long response as the services see it, without Express: they learn when its client leaves or
 * stops reading, cut it, and (an event stream) write text to it. The HTTP layer makes one over
 * the response (send-stream.ts: `openConnection`, `eventStream`).
 */
export interface OpenConnection {
  /** Runs `listener` once when the connection closes, for whatever reason. */
  onClose(listener: () => void): void;
  /** Cuts the connection: the client sees a truncated answer. */
  destroy(): void;
  /** Bytes written that the client has not taken yet (still in this process). */
  readonly unsent: number;
  /** Bytes handed to the kernel for the client so far: growing means the client reads. */
  readonly flushed: number;
}

/** A Server-Sent Events stream (the live feeds): an open connection that is written events. */
export interface EventSink extends OpenConnection {
  /** Sends the stream's status and headers, then `text`: once, after the checks, before any event. */
  start(text: string): void;
  /** Writes text; false when the client has not taken what was written before (then `writable()`). */
  write(text: string): boolean;
  /** Resolves when the client can take more, or the connection has closed. */
  writable(): Promise<void>;
  /** Ends the stream. */
  end(): void;
  /**
   * The stream will not start (an error is answered instead): runs the close listeners, so that it
   * leaves whatever it joined, and leaves the response to the error envelope.
   */
  abandon(): void;
}
