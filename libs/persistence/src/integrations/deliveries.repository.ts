import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DeliveryState, EventType } from '@dts/domain';
import { DataSource } from 'typeorm';
import { queryOne, returningRows } from '../sql/sql-results';

/** A lane held by a worker: one integration and one device, whose deliveries go out in order. */
export interface ClaimedLane {
  integration_id: number;
  device_id: number;
  /** The integration's account: the one whose share of the worker's lanes this takes. */
  account_id: number;
  /** The lane's `added` when it was claimed: a different value at release means deliveries arrived meanwhile. */
  added: string;
  /**
   * The lane's count of redelivery requests as last read (at the claim, then with its deliveries): a
   * different value at release means the account asked for a redelivery meanwhile.
   */
  redelivered: string;
  /** This claim's token: the release applies only while the lane is still this claim's. */
  lease: string;
}

/** How the worker's lanes are shared: at most `perAccount` lanes of one account, counting those it `holds` already. */
export interface LaneShare {
  perAccount: number;
  /** Lanes this worker holds now, by account. */
  holds: ReadonlyMap<number, number>;
}

/** What a lane's sending came to: due again at `retryAt` after a failure, or `more` to send now. */
export interface LaneOutcome {
  retryAt: Date | null;
  more: boolean;
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
  /** Its count of redelivery requests when read: the failed attempt's record compares it. */
  redelivered: number;
  /** The lane's count of redelivery requests, read in the same statement. */
  lane_redelivered: string;
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
 * Deliveries and their lanes. A worker claims due lanes (moving `next_at` and `held_until` a lease
 * ahead, so a worker that dies loses the lane when the lease ends and another takes it), sends the
 * lane's deliveries in id order, records each outcome once, and releases the lane: idle, due again,
 * or due after a backoff.
 */
@Injectable()
export class DeliveriesRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * Claims up to `limit` due lanes for `leaseMs`, account by account: an account gets at most
   * `share.perAccount` lanes counting those this worker holds already, and the accounts holding the
   * fewest go first (then the longest due). `waiting` walks the accounts with a waiting lane, one
   * index probe each (each account's earliest `next_at` is the first entry of its part of the index),
   * so a claim costs what the accounts and the lanes it takes cost, not every lane in backoff or due.
   * Another worker's claim in progress is skipped, not waited for.
   */
  async claimLanes(limit: number, leaseMs: number, share: LaneShare): Promise<ClaimedLane[]> {
    return returningRows<ClaimedLane>(
      this.ds,
      `WITH RECURSIVE waiting AS (
         (SELECT account_id, next_at FROM integration_lanes WHERE next_at IS NOT NULL ORDER BY account_id, next_at LIMIT 1)
         UNION ALL
         SELECT n.account_id, n.next_at FROM waiting w CROSS JOIN LATERAL (
           SELECT l.account_id, l.next_at FROM integration_lanes l
           WHERE l.account_id > w.account_id AND l.next_at IS NOT NULL ORDER BY l.account_id, l.next_at LIMIT 1) n
       ),
       holds AS (SELECT * FROM unnest($4::int[], $5::int[]) AS h(account_id, n)),
       candidates AS (
         SELECT c.integration_id, c.device_id, coalesce(h.n, 0) + c.turn AS turn, c.next_at
         FROM waiting w LEFT JOIN holds h ON h.account_id = w.account_id
         CROSS JOIN LATERAL (
           SELECT l.integration_id, l.device_id, l.next_at, row_number() OVER (ORDER BY l.next_at) AS turn
           FROM integration_lanes l WHERE l.account_id = w.account_id AND l.next_at <= now()
           ORDER BY l.next_at LIMIT greatest($3 - coalesce(h.n, 0), 0)) c
         WHERE w.next_at <= now()
       ),
       due AS (
         SELECT l.integration_id, l.device_id FROM integration_lanes l
         JOIN candidates c ON c.integration_id = l.integration_id AND c.device_id = l.device_id
         WHERE l.next_at <= now() ORDER BY c.turn, c.next_at LIMIT $1 FOR UPDATE OF l SKIP LOCKED
       )
       UPDATE integration_lanes l SET next_at = now() + $2 * interval '1 millisecond', held_until = now() + $2 * interval '1 millisecond', lease = l.lease + 1
       FROM due WHERE l.integration_id = due.integration_id AND l.device_id = due.device_id
       RETURNING l.integration_id, l.device_id, l.account_id, l.added::text AS added, l.redelivered::text AS redelivered, l.lease::text AS lease`,
      [limit, leaseMs, share.perAccount, [...share.holds.keys()], [...share.holds.values()]],
    );
  }

  /**
   * The lane's next pending deliveries, oldest first, with the redelivery counts of each and of the
   * lane as of this one statement: a redelivery committed before it is in both, one after it in neither.
   */
  pending(lane: ClaimedLane, limit: number): Promise<OutgoingDelivery[]> {
    return this.ds.query(
      `SELECT d.id::text AS id, d.event_id::text AS event_id, e.kind, v.eui, d.attempts, d.created_at, e.body, d.redelivered, l.redelivered::text AS lane_redelivered
       FROM integration_deliveries d JOIN events e ON e.id = d.event_id JOIN devices v ON v.uid = d.device_id
         JOIN integration_lanes l ON l.integration_id = d.integration_id AND l.device_id = d.device_id
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

  /**
   * A failed attempt: `nextAt` when it is tried again, or null when it is given up (`failed`). When a
   * redelivery was asked for while it was in flight (the count moved past `seenRedelivered`, what
   * was read before the attempt), the delivery stays pending and due now instead: the request was
   * for an attempt after this one. Returns whether that was so.
   */
  async attemptFailed(result: AttemptResult, nextAt: Date | null, seenRedelivered: number): Promise<{ redelivered: boolean }> {
    const rows = await returningRows<{ redelivered: boolean }>(
      this.ds,
      `UPDATE integration_deliveries SET attempts = attempts + 1, last_attempt_at = now(), response_status = $2, latency_ms = $3, error = $4,
              state = CASE WHEN redelivered <> $6 THEN 'pending' WHEN $5::timestamptz IS NULL THEN 'failed' ELSE state END,
              next_attempt_at = CASE WHEN redelivered <> $6 THEN now() ELSE $5 END
       WHERE id = $1 AND state = 'pending'
       RETURNING redelivered <> $6 AS redelivered`,
      [result.id, result.status, Math.round(result.latencyMs), result.error?.slice(0, 500) ?? null, nextAt, seenRedelivered],
    );
    return { redelivered: rows[0]?.redelivered ?? false };
  }

  /**
   * Gives the lane back, if it is still this claim's: due now if a redelivery was asked for since its
   * deliveries were read (even over a failure's backoff: that is what a redelivery is for); else due
   * at `retryAt` after a failure (new deliveries do not cut it: a receiver that is down is not tried
   * at every event); else due now if its batch was full or deliveries were added since the claim;
   * else idle. The lane row is locked by any transaction adding deliveries to it or asking for a
   * redelivery, so this sees their counts once they commit.
   */
  async release(lane: ClaimedLane, outcome: LaneOutcome): Promise<void> {
    await this.ds.query(
      `UPDATE integration_lanes SET held_until = NULL, next_at = CASE
         WHEN redelivered <> $6::bigint THEN now()
         WHEN $3::timestamptz IS NOT NULL THEN $3::timestamptz
         WHEN $4 OR added <> $5::bigint THEN now()
         ELSE NULL END
       WHERE integration_id = $1 AND device_id = $2 AND lease = $7::bigint`,
      [lane.integration_id, lane.device_id, outcome.retryAt, outcome.more, lane.added, lane.redelivered, lane.lease],
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
   * Sends a delivery again, whatever its state: pending now, first in its lane's turn, and the lane
   * due at once (cutting a backoff). A lane a worker holds is left to it, never made due beside it
   * (a second worker would send the lane while the first still does): its release, and the record of
   * the attempt in flight if that fails, see the redelivery count move and make it due then. Null
   * when no such delivery.
   */
  async redeliver(integrationId: number, id: string): Promise<DeliveryRow | null> {
    return this.ds.transaction(async (tx) => {
      const rows = await returningRows<{ device_id: number }>(
        tx,
        `UPDATE integration_deliveries SET state = 'pending', next_attempt_at = now(), delivered_at = NULL, redelivered = redelivered + 1
         WHERE integration_id = $1 AND id = $2 RETURNING device_id`,
        [integrationId, id],
      );
      const [updated] = rows;
      if (!updated) return null;
      await tx.query(
        `INSERT INTO integration_lanes (integration_id, device_id, account_id, next_at, redelivered)
         SELECT $1, $2, i.account_id, now(), 1 FROM integrations i WHERE i.uid = $1
         ON CONFLICT (integration_id, device_id) DO UPDATE SET redelivered = integration_lanes.redelivered + 1,
           next_at = CASE
             WHEN integration_lanes.held_until > now() THEN integration_lanes.next_at
             WHEN integration_lanes.next_at IS NULL OR integration_lanes.next_at > now() THEN now()
             ELSE integration_lanes.next_at END`,
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
