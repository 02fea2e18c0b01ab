import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DeliveryState, EventType } from '@dts/domain';
import { DataSource } from 'typeorm';
import { queryOne, returningRows } from '../repositories/sql-results';

/** A lane held by a worker: one integration and one device, whose deliveries go out in order. */
export interface ClaimedLane {
  integration_id: number;
  device_id: number;
  /** The lane's `added` when it was claimed: a different value at release means deliveries arrived meanwhile. */
  added: string;
}

/** A pending delivery as the worker sends it. */
export interface OutgoingDelivery {
  id: string;
  event_id: string;
  kind: EventType;
  eui: string;
  attempts: number;
  created_at: Date;
  /** The event body, serialised once when routed: every attempt sends exactly these bytes. */
  body: string;
}

export interface DeliveryRow {
  id: string;
  event_id: string;
  kind: EventType;
  eui: string;
  state: DeliveryState;
  attempts: number;
  created_at: Date;
  last_attempt_at: Date | null;
  next_attempt_at: Date | null;
  delivered_at: Date | null;
  response_status: number | null;
  latency_ms: number | null;
  error: string | null;
}

/** One attempt's outcome. */
export interface AttemptResult {
  id: string;
  status: number | null;
  latencyMs: number;
  error: string | null;
}

const LIST_COLUMNS = `d.id::text AS id, d.event_id::text AS event_id, e.kind, v.eui, d.state, d.attempts, d.created_at, d.last_attempt_at, d.next_attempt_at,
  d.delivered_at, d.response_status, d.latency_ms, d.error`;

/**
 * Deliveries and their lanes. A worker claims due lanes (moving `next_at` a lease ahead, so a worker
 * that dies loses the lane when the lease ends and another takes it), sends the lane's deliveries in
 * id order, records each outcome once, and releases the lane: idle, due again, or due after a backoff.
 */
@Injectable()
export class DeliveriesRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async claimLanes(limit: number, leaseMs: number): Promise<ClaimedLane[]> {
    return returningRows<ClaimedLane>(
      this.ds,
      `UPDATE integration_lanes l SET next_at = now() + $2 * interval '1 millisecond'
       FROM (SELECT integration_id, device_id FROM integration_lanes WHERE next_at <= now() ORDER BY next_at LIMIT $1 FOR UPDATE SKIP LOCKED) due
       WHERE l.integration_id = due.integration_id AND l.device_id = due.device_id
       RETURNING l.integration_id, l.device_id, l.added::text AS added`,
      [limit, leaseMs],
    );
  }

  /** The lane's next pending deliveries, oldest first. */
  pending(lane: ClaimedLane, limit: number): Promise<OutgoingDelivery[]> {
    return this.ds.query(
      `SELECT d.id::text AS id, d.event_id::text AS event_id, e.kind, v.eui, d.attempts, d.created_at, e.body
       FROM integration_deliveries d JOIN events e ON e.id = d.event_id JOIN devices v ON v.uid = d.device_id
       WHERE d.integration_id = $1 AND d.device_id = $2 AND d.state = 'pending'
       ORDER BY d.id LIMIT $3`,
      [lane.integration_id, lane.device_id, limit],
    );
  }

  /** Deliveries that reached their receiver: one statement for a lane's batch. */
  async delivered(results: AttemptResult[]): Promise<void> {
    if (results.length === 0) return;
    await this.ds.query(
      `UPDATE integration_deliveries d SET state = 'delivered', attempts = d.attempts + 1, last_attempt_at = now(), delivered_at = now(),
              next_attempt_at = NULL, response_status = r.status, latency_ms = r.latency, error = NULL
       FROM unnest($1::bigint[], $2::int[], $3::int[]) AS r(id, status, latency)
       WHERE d.id = r.id AND d.state = 'pending'`,
      [results.map((r) => r.id), results.map((r) => r.status), results.map((r) => Math.round(r.latencyMs))],
    );
  }

  /** A failed attempt: `nextAt` when it is tried again, or null when it is given up (`failed`). */
  async attemptFailed(result: AttemptResult, nextAt: Date | null): Promise<void> {
    await this.ds.query(
      `UPDATE integration_deliveries SET attempts = attempts + 1, last_attempt_at = now(), response_status = $2, latency_ms = $3, error = $4,
              state = CASE WHEN $5::timestamptz IS NULL THEN 'failed' ELSE state END, next_attempt_at = $5
       WHERE id = $1 AND state = 'pending'`,
      [result.id, result.status, Math.round(result.latencyMs), result.error?.slice(0, 500) ?? null, nextAt],
    );
  }

  /**
   * Gives the lane back: due at `retryAt` after a failure; otherwise due now if its batch was full or
   * deliveries were added since the claim, else idle. The lane row is locked by any transaction
   * adding deliveries to it, so this sees their `added` once they commit.
   */
  async release(lane: ClaimedLane, outcome: { retryAt: Date | null; more: boolean }): Promise<void> {
    await this.ds.query(
      `UPDATE integration_lanes SET next_at = CASE
         WHEN $3::timestamptz IS NOT NULL THEN $3::timestamptz
         WHEN $4 OR added <> $5::bigint THEN now()
         ELSE NULL END
       WHERE integration_id = $1 AND device_id = $2`,
      [lane.integration_id, lane.device_id, outcome.retryAt, outcome.more, lane.added],
    );
  }

  /** The integration's deliveries, newest first, in keyset pages (`before`: an id of the previous page). */
  list(integrationId: number, q: { state: DeliveryState | null; before: string | null; limit: number }): Promise<DeliveryRow[]> {
    return this.ds.query(
      `SELECT ${LIST_COLUMNS} FROM integration_deliveries d JOIN events e ON e.id = d.event_id JOIN devices v ON v.uid = d.device_id
       WHERE d.integration_id = $1 AND ($2::text IS NULL OR d.state = $2) AND ($3::bigint IS NULL OR d.id < $3)
       ORDER BY d.id DESC LIMIT $4`,
      [integrationId, q.state, q.before, q.limit],
    );
  }

  /**
   * Sends a delivery again, whatever its state: pending now, first in its lane's turn, the lane due
   * at once (unless a worker holds it: its release sees `added` move). Null when no such delivery.
   */
  async redeliver(integrationId: number, id: string): Promise<DeliveryRow | null> {
    return this.ds.transaction(async (tx) => {
      const rows = await returningRows<{ device_id: number }>(
        tx,
        `UPDATE integration_deliveries SET state = 'pending', next_attempt_at = now(), delivered_at = NULL
         WHERE integration_id = $1 AND id = $2 RETURNING device_id`,
        [integrationId, id],
      );
      const [updated] = rows;
      if (!updated) return null;
      await tx.query(
        `INSERT INTO integration_lanes (integration_id, device_id, next_at, added) VALUES ($1, $2, now(), 1)
         ON CONFLICT (integration_id, device_id) DO UPDATE SET added = integration_lanes.added + 1,
           next_at = CASE WHEN integration_lanes.next_at IS NULL OR integration_lanes.next_at > now() THEN now() ELSE integration_lanes.next_at END`,
        [integrationId, updated.device_id],
      );
      return queryOne<DeliveryRow>(
        tx,
        `SELECT ${LIST_COLUMNS} FROM integration_deliveries d JOIN events e ON e.id = d.event_id JOIN devices v ON v.uid = d.device_id WHERE d.id = $1`,
        [id],
      );
    });
  }

  /**
   * Keeps each integration's queue bounded: past `limit` pending deliveries the oldest are given up
   * (`failed`, with the reason) so that a receiver gone for good cannot fill the database.
   */
  async enforceBound(limit: number): Promise<number> {
    const rows = await returningRows<{ id: string }>(
      this.ds,
      `WITH ranked AS (
         SELECT id, row_number() OVER (PARTITION BY integration_id ORDER BY id DESC) AS n
         FROM integration_deliveries WHERE state = 'pending'
       )
       UPDATE integration_deliveries d SET state = 'failed', error = 'dropped: more than ' || $1 || ' deliveries were waiting', next_attempt_at = NULL
       FROM ranked WHERE d.id = ranked.id AND ranked.n > $1 RETURNING d.id::text AS id`,
      [limit],
    );
    return rows.length;
  }

  /** Deletes events older than the retention whose deliveries are all finished (deliveries go with them). */
  async purge(retentionMs: number, batch: number): Promise<number> {
    const rows = await returningRows<{ id: string }>(
      this.ds,
      `DELETE FROM events WHERE id IN (
         SELECT e.id FROM events e
         WHERE e.created_at < now() - $1 * interval '1 millisecond' AND e.routed_at IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM integration_deliveries d WHERE d.event_id = e.id AND d.state = 'pending')
         ORDER BY e.created_at LIMIT $2)
       RETURNING id::text AS id`,
      [retentionMs, batch],
    );
    return rows.length;
  }
}
