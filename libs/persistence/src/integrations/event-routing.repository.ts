import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { EventType, GeoJsonPolygon } from '@dts/domain';
import { DataSource, type EntityManager } from 'typeorm';
import type { AlertRow } from '../alerts/alerts.repository';
import { ALERT_ROW_QUERY } from '../alerts/alerts.repository';
import { type AlertMailLimits, decideMails } from '../alerts/alert-mails.repository';
import { clearAlert, raiseAlert } from '../alerts/alert-writes';
import { queryOne } from '../sql/sql-results';
import { statement, Statements } from '../sql/statements';
import { IMAGE_ROW_COLUMNS, type ImageRow } from '../images/images.repository';
import { COMMAND_ROW_QUERY, type CommandRow } from '../commands/commands.repository';
import { UPLINK_ROW_SELECT, type UplinkRow } from '../uplinks/uplink-reads.repository';
import {
  type AlertChange,
  type RoutingBatch,
  type RoutingDevice,
  type RoutingEvent,
  type RoutingIntegration,
  type RoutingOutcome,
  type RoutingRule,
  type RuleStateRow,
  type RuleStep,
  stateKey,
} from './routing-batch';

/** One router at a time across every worker (a transaction-scoped advisory lock). */
const ROUTER_LOCK = 1_795_712_001;

/**
 * The oldest unrouted events, in id order. `ORDER BY events.id`, qualified: a bare `id` would name
 * the output column, `id::text`, and sort as text ('1000' before '999'), so that across a power of
 * ten a device's newer uplink was judged before an older one of the same second (which then raised
 * against the newer one's state), and LIMIT took the wrong events, not the oldest.
 */
export const UNROUTED_EVENTS_SQL = `SELECT id::text AS id, kind, device_id, ref::text AS ref, status, created_at FROM events
   WHERE routed_at IS NULL ORDER BY events.id LIMIT $1`;

/**
 * The router's transaction: take the oldest unrouted events, read what they are about, let the
 * caller decide, write bodies, deliveries, lanes, rule states and alerts, mark the events routed.
 * A single router at a time keeps each device's events in order; the rows are never skipped, only
 * taken once committed, however late their transaction commits.
 */
/** Whether any event waits: the look every routing pass starts with. */
const ANY_UNROUTED = statement('events_any_unrouted', 'SELECT 1 FROM events WHERE routed_at IS NULL LIMIT 1');

@Injectable()
export class EventRoutingRepository {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly statements: Statements,
  ) {}

  /**
   * Routes one batch. Resolves with how many events it took (0: none waiting, or another router
   * holds the lock), whether it queued deliveries, and the alerts it raised or cleared (for the live feeds).
   */
  async routeBatch(
    limit: number,
    knownFences: ReadonlyMap<number, number>,
    decide: (batch: RoutingBatch) => RoutingOutcome,
    mailLimits: AlertMailLimits,
  ): Promise<{ events: number; deliveries: number; alerts: AlertChange[] }> {
    const none = { events: 0, deliveries: 0, alerts: [] };
    // Most wake-ups find nothing (an uplink of a device nobody follows): one indexed look, no transaction.
    const waiting = await this.statements.rows(ANY_UNROUTED, []);
    if (waiting.length === 0) return none;
    return this.ds.transaction(async (tx) => {
      const { locked } = await queryOne<{ locked: boolean }>(tx, 'SELECT pg_try_advisory_xact_lock($1) AS locked', [ROUTER_LOCK]);
      if (!locked) return none;
      const events: RoutingEvent[] = await tx.query(UNROUTED_EVENTS_SQL, [limit]);
      if (events.length === 0) return none;
      const batch = await this.load(tx, events, knownFences);
      const outcome = decide(batch);
      const alerts = await this.write(tx, events, outcome, batch.states, mailLimits);
      return { events: events.length, deliveries: outcome.deliveries.length, alerts };
    });
  }

  private async load(tx: EntityManager, events: RoutingEvent[], knownFences: ReadonlyMap<number, number>): Promise<RoutingBatch> {
    const refs = (kind: EventType) => [...new Set(events.filter((e) => e.kind === kind).map((e) => e.ref))];
    const deviceIds = [...new Set(events.map((e) => e.device_id))];
    const devices: RoutingDevice[] = await tx.query(
      `SELECT d.uid, d.eui, d.owner_id, d.label, d.folder, d.tags, d.deleted_at IS NOT NULL AS deleted,
              d.owner_id || array(SELECT s.account_id FROM device_shares s WHERE s.device_id = d.uid) AS accounts
       FROM devices d WHERE d.uid = ANY($1::int[])`,
      [deviceIds],
    );
    const accounts = [...new Set(devices.flatMap((d) => d.accounts))];
    const uplinkIds = refs('uplink');
    const [uplinks, commands, images, alerts, integrations, rules] = await Promise.all([
      uplinkIds.length === 0
        ? []
        : (tx.query(`SELECT ${UPLINK_ROW_SELECT}, u.device_id FROM uplinks u LEFT JOIN networks n ON n.uid = u.network_ref WHERE u.uid = ANY($1::bigint[])`, [
            uplinkIds,
          ]) as Promise<(UplinkRow & { device_id: number })[]>),
      refs('command').length === 0 ? [] : (tx.query(`${COMMAND_ROW_QUERY} WHERE c.uid = ANY($1::int[])`, [refs('command')]) as Promise<CommandRow[]>),
      refs('image').length === 0
        ? []
        : (tx.query(`SELECT ${IMAGE_ROW_COLUMNS} FROM images WHERE uid = ANY($1::int[])`, [refs('image')]) as Promise<ImageRow[]>),
      refs('alert').length === 0 ? [] : (tx.query(`${ALERT_ROW_QUERY} WHERE a.uid = ANY($1::bigint[])`, [refs('alert')]) as Promise<AlertRow[]>),
      tx.query('SELECT uid, account_id, events, devices FROM integrations WHERE enabled AND account_id = ANY($1::int[])', [accounts]) as Promise<
        RoutingIntegration[]
      >,
      uplinkIds.length === 0
        ? []
        : (tx.query(
            `SELECT r.uid, r.account_id, r.name, r.kind, r.devices, r.email, r.fence_id, f.name AS fence_name, f.revision AS fence_revision, r.on_event, r.minutes, r.member,
                    r.above, r.below, r.hysteresis, r.measure
             FROM alert_rules r LEFT JOIN fences f ON f.uid = r.fence_id WHERE r.enabled AND r.account_id = ANY($1::int[])`,
            [accounts],
          ) as Promise<RoutingRule[]>),
    ]);
    const states: RuleStateRow[] =
      rules.length === 0
        ? []
        : await tx.query(
            `SELECT rule_id, device_id, state, observed_at, alert_id::text AS alert_id, due_at FROM rule_states
             WHERE rule_id = ANY($1::int[]) AND device_id = ANY($2::int[]) FOR UPDATE`,
            [rules.map((r) => r.uid), deviceIds],
          );
    const missingFences = [...new Set(rules.flatMap((r) => (r.fence_id !== null && knownFences.get(r.fence_id) !== r.fence_revision ? [r.fence_id] : [])))];
    const fences: { uid: number; revision: number; geometry: GeoJsonPolygon }[] =
      missingFences.length === 0 ? [] : await tx.query('SELECT uid, revision, geometry FROM fences WHERE uid = ANY($1::int[])', [missingFences]);
    return {
      events,
      devices: new Map(devices.map((d) => [d.uid, d])),
      uplinks: new Map(uplinks.map((u) => [u.uid, u])),
      commands: new Map(commands.map((c) => [String(c.uid), c])),
      images: new Map(images.map((i) => [String(i.uid), i])),
      alerts: new Map(alerts.map((a) => [a.uid, a])),
      integrations,
      rules,
      states: new Map(states.map((s) => [stateKey(s.rule_id, s.device_id), s])),
      fences: new Map(fences.map((f) => [f.uid, { revision: f.revision, geometry: f.geometry }])),
    };
  }

  private async write(
    tx: EntityManager,
    events: RoutingEvent[],
    outcome: RoutingOutcome,
    held: Map<string, RuleStateRow>,
    mailLimits: AlertMailLimits,
  ): Promise<AlertChange[]> {
    const ids = events.map((e) => e.id);
    await tx.query(`UPDATE events e SET routed_at = now(), body = b.body FROM unnest($1::bigint[], $2::text[]) AS b(id, body) WHERE e.id = b.id`, [
      ids,
      ids.map((id) => outcome.bodies.get(id) ?? null),
    ]);
    if (outcome.deliveries.length > 0) {
      const d = outcome.deliveries;
      // In event order, so that delivery ids (a lane's order) follow the events.
      await tx.query(
        `INSERT INTO integration_deliveries (integration_id, event_id, device_id)
         SELECT * FROM unnest($1::int[], $2::bigint[], $3::int[]) ORDER BY 2, 1 ON CONFLICT DO NOTHING`,
        [d.map((x) => x.integration_id), d.map((x) => x.event_id), d.map((x) => x.device_id)],
      );
      await tx.query(
        `INSERT INTO integration_lanes (integration_id, device_id, account_id, next_at, added)
         SELECT x.integration_id, x.device_id, i.account_id, now(), count(*)
         FROM unnest($1::int[], $2::int[]) AS x(integration_id, device_id) JOIN integrations i ON i.uid = x.integration_id
         GROUP BY 1, 2, 3 ORDER BY 1, 2
         ON CONFLICT (integration_id, device_id) DO UPDATE SET added = integration_lanes.added + excluded.added,
           next_at = coalesce(integration_lanes.next_at, now())`,
        [d.map((x) => x.integration_id), d.map((x) => x.device_id)],
      );
    }
    if (outcome.steps.length === 0) return [];
    const changes: AlertChange[] = [];
    // Each key's open alert, followed through the steps: a raise and a clear in one batch chain up.
    const open = new Map<string, string | null>();
    const last = new Map<string, RuleStep>();
    for (const step of outcome.steps) {
      const key = stateKey(step.rule_id, step.device_id);
      if (!open.has(key)) open.set(key, held.get(key)?.alert_id ?? null);
      const alertId = open.get(key) ?? null;
      if (step.clear && alertId !== null) {
        const { cleared, mail } = await clearAlert(tx, alertId, step.clear.at, step.clear.by);
        if (cleared) changes.push({ device_id: step.device_id, alert_id: alertId, action: 'cleared', mail });
        open.set(key, null);
      }
      if (step.raise) {
        const raised = await raiseAlert(tx, step.raise);
        changes.push({ device_id: step.device_id, alert_id: raised, action: 'raised', mail: step.raise.rule.email });
        open.set(key, raised);
      }
      last.set(key, step);
    }
    const s = [...last.entries()];
    await tx.query(
      `INSERT INTO rule_states (rule_id, device_id, state, observed_at, alert_id, due_at)
       SELECT * FROM unnest($1::int[], $2::int[], $3::text[], $4::timestamptz[], $5::bigint[], $6::timestamptz[])
       ON CONFLICT (rule_id, device_id) DO UPDATE SET state = excluded.state, observed_at = excluded.observed_at, alert_id = excluded.alert_id,
         due_at = excluded.due_at`,
      [
        s.map(([, x]) => x.rule_id),
        s.map(([, x]) => x.device_id),
        s.map(([, x]) => x.state),
        s.map(([, x]) => x.observed_at),
        s.map(([key]) => open.get(key) ?? null),
        s.map(([, x]) => x.due_at),
      ],
    );
    await decideMails(tx, changes, mailLimits);
    return changes;
  }
}
