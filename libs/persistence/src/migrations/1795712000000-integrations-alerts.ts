import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Outbound integrations and alerts (docs/api.md §18, §19).
 *
 * `events` is a transactional outbox: triggers add a row in the very transaction that stores the
 * fact (an uplink, a command's new status, a processed image), so a crash between a commit and any
 * later step loses nothing, and no code path that writes those tables has to remember to call
 * anything. Rows are added only for devices whose accounts (owner, or shared with) have an
 * integration wanting that type or, for uplinks, an alert rule. The worker's router takes rows still
 * unrouted (`routed_at IS NULL`: no cursor, so a row whose transaction commits late is simply found
 * later), evaluates rules, writes the event body once and one delivery per integration that wants
 * it. Deliveries are queued per integration and device ("lane"): in order per device, a failure
 * holding only its own lane back.
 */
export class IntegrationsAlerts1795712000000 implements MigrationInterface {
  name = 'IntegrationsAlerts1795712000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE integrations (
        uid                serial PRIMARY KEY,
        account_id         integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        name               text NOT NULL,
        kind               text NOT NULL CHECK (kind IN ('webhook', 'mqtt')),
        url                text NOT NULL,
        events             text[] NOT NULL,
        devices            jsonb,
        enabled            boolean NOT NULL DEFAULT true,
        disabled_reason    text,
        disabled_at        timestamptz,
        failing_since      timestamptz,
        last_error         text,
        last_success_at    timestamptz,
        secret_encrypted   bytea,
        topic              text,
        qos                smallint CHECK (qos IN (0, 1)),
        username           text,
        password_encrypted bytea,
        created_at         timestamptz NOT NULL DEFAULT now(),
        updated_at         timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX integrations_account_idx ON integrations (account_id)`);

    await q.query(`
      CREATE TABLE alert_rules (
        uid         serial PRIMARY KEY,
        account_id  integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        name        text NOT NULL,
        kind        text NOT NULL CHECK (kind IN ('fence', 'offline', 'threshold', 'battery')),
        enabled     boolean NOT NULL DEFAULT true,
        devices     jsonb,
        email       boolean NOT NULL DEFAULT false,
        fence_id    integer REFERENCES fences(uid) ON DELETE CASCADE,
        on_event    text CHECK (on_event IN ('enter', 'leave')),
        minutes     integer,
        member      text,
        above       double precision,
        below       double precision,
        hysteresis  double precision,
        measure     text CHECK (measure IN ('percent', 'voltage')),
        created_at  timestamptz NOT NULL DEFAULT now(),
        updated_at  timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX alert_rules_account_idx ON alert_rules (account_id)`);
    await q.query(`CREATE INDEX alert_rules_fence_idx ON alert_rules (fence_id) WHERE fence_id IS NOT NULL`);

    await q.query(`
      CREATE TABLE alerts (
        uid             bigserial PRIMARY KEY,
        account_id      integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        rule_id         integer REFERENCES alert_rules(uid) ON DELETE SET NULL,
        rule_name       text NOT NULL,
        rule_kind       text NOT NULL,
        device_id       integer NOT NULL REFERENCES devices(uid) ON DELETE CASCADE,
        message         text NOT NULL,
        details         jsonb NOT NULL,
        raised_at       timestamptz NOT NULL,
        cleared_at      timestamptz,
        acknowledged_at timestamptz,
        -- E-mail of the raise and of the clear: null none wanted, false to send, true sent.
        mail_raised     boolean,
        mail_cleared    boolean
      )`);
    await q.query(`CREATE INDEX alerts_account_idx ON alerts (account_id, raised_at DESC, uid DESC)`);
    await q.query(`CREATE INDEX alerts_device_idx ON alerts (device_id, raised_at DESC)`);
    await q.query(`CREATE INDEX alerts_mail_idx ON alerts (uid) WHERE mail_raised = false OR mail_cleared = false`);

    // Per rule and device: inside/outside, normal/alert, online/offline; the alert it holds open;
    // for offline rules when the device is due to be called silent (the scheduled check reads only
    // the rows that are due, never every device).
    await q.query(`
      CREATE TABLE rule_states (
        rule_id     integer NOT NULL REFERENCES alert_rules(uid) ON DELETE CASCADE,
        device_id   integer NOT NULL REFERENCES devices(uid) ON DELETE CASCADE,
        state       text NOT NULL,
        observed_at timestamptz NOT NULL,
        alert_id    bigint REFERENCES alerts(uid) ON DELETE SET NULL,
        due_at      timestamptz,
        PRIMARY KEY (rule_id, device_id)
      )`);
    await q.query(`CREATE INDEX rule_states_due_idx ON rule_states (due_at) WHERE due_at IS NOT NULL`);
    await q.query(`CREATE INDEX rule_states_device_idx ON rule_states (device_id)`);

    await q.query(`
      CREATE TABLE events (
        id         bigserial PRIMARY KEY,
        kind       text NOT NULL CHECK (kind IN ('uplink', 'command', 'alert', 'image')),
        device_id  integer NOT NULL REFERENCES devices(uid) ON DELETE CASCADE,
        ref        bigint NOT NULL,
        status     text,
        created_at timestamptz NOT NULL DEFAULT now(),
        routed_at  timestamptz,
        -- The event body as sent, byte for byte (text, not jsonb, which would reorder its members).
        body       text
      )`);
    await q.query(`CREATE INDEX events_unrouted_idx ON events (id) WHERE routed_at IS NULL`);
    await q.query(`CREATE INDEX events_created_idx ON events (created_at)`);
    await q.query(`CREATE INDEX events_device_idx ON events (device_id)`);

    await q.query(`
      CREATE TABLE integration_deliveries (
        id              bigserial PRIMARY KEY,
        integration_id  integer NOT NULL REFERENCES integrations(uid) ON DELETE CASCADE,
        event_id        bigint NOT NULL REFERENCES events(id) ON DELETE CASCADE,
        device_id       integer NOT NULL,
        state           text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
        attempts        integer NOT NULL DEFAULT 0,
        created_at      timestamptz NOT NULL DEFAULT now(),
        last_attempt_at timestamptz,
        next_attempt_at timestamptz,
        delivered_at    timestamptz,
        response_status smallint,
        latency_ms      integer,
        error           text,
        UNIQUE (event_id, integration_id)
      )`);
    await q.query(`CREATE INDEX integration_deliveries_lane_idx ON integration_deliveries (integration_id, device_id, id) WHERE state = 'pending'`);
    await q.query(`CREATE INDEX integration_deliveries_list_idx ON integration_deliveries (integration_id, id DESC)`);

    // One row per integration and device with deliveries: when its head may be tried next (a lease
    // moves it forward while a worker holds the lane; null when nothing waits), and a counter that
    // every added delivery moves, so that releasing a lane sees what arrived while it was held.
    await q.query(`
      CREATE TABLE integration_lanes (
        integration_id integer NOT NULL REFERENCES integrations(uid) ON DELETE CASCADE,
        device_id      integer NOT NULL,
        next_at        timestamptz,
        added          bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (integration_id, device_id)
      )`);
    await q.query(`CREATE INDEX integration_lanes_due_idx ON integration_lanes (next_at) WHERE next_at IS NOT NULL`);

    // Whether an account that can see the device wants events of this type.
    await q.query(`
      CREATE FUNCTION event_wanted(p_device integer, p_kind text) RETURNS boolean LANGUAGE sql STABLE AS $$
        SELECT EXISTS (
          SELECT 1 FROM (
            SELECT owner_id AS account_id FROM devices WHERE uid = p_device
            UNION ALL SELECT account_id FROM device_shares WHERE device_id = p_device
          ) a
          WHERE EXISTS (SELECT 1 FROM integrations i WHERE i.account_id = a.account_id AND i.enabled AND p_kind = ANY (i.events))
             OR (p_kind = 'uplink' AND EXISTS (SELECT 1 FROM alert_rules r WHERE r.account_id = a.account_id AND r.enabled))
        )
      $$`);
    await q.query(`
      CREATE FUNCTION events_capture_uplinks() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO events (kind, device_id, ref)
        SELECT 'uplink', n.device_id, n.uid FROM events_new_uplinks n
        WHERE n.device_id IN (SELECT w.device_id FROM (SELECT DISTINCT device_id FROM events_new_uplinks) w WHERE event_wanted(w.device_id, 'uplink'))
        ORDER BY n.uid;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER uplinks_capture_events AFTER INSERT ON uplinks
      REFERENCING NEW TABLE AS events_new_uplinks FOR EACH STATEMENT EXECUTE FUNCTION events_capture_uplinks()`);
    await q.query(`
      CREATE FUNCTION events_capture_command() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF event_wanted(NEW.device_id, 'command') THEN
          INSERT INTO events (kind, device_id, ref, status) VALUES ('command', NEW.device_id, NEW.uid, NEW.status);
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER commands_capture_created AFTER INSERT ON commands FOR EACH ROW EXECUTE FUNCTION events_capture_command()`);
    await q.query(`
      CREATE TRIGGER commands_capture_status AFTER UPDATE OF status ON commands
      FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION events_capture_command()`);
    await q.query(`
      CREATE FUNCTION events_capture_image() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF event_wanted(NEW.device_id, 'image') THEN
          INSERT INTO events (kind, device_id, ref, status) VALUES ('image', NEW.device_id, NEW.uid, NEW.status::text);
        END IF;
        RETURN NULL;
      END $$`);
    // An image tells once it is processed: ready (4), annotated (5) or failed (3).
    await q.query(`
      CREATE TRIGGER images_capture_status AFTER UPDATE OF status ON images
      FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status AND NEW.status IN (3, 4, 5) AND NEW.deleted = 0)
      EXECUTE FUNCTION events_capture_image()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER IF EXISTS images_capture_status ON images`);
    await q.query(`DROP TRIGGER IF EXISTS commands_capture_status ON commands`);
    await q.query(`DROP TRIGGER IF EXISTS commands_capture_created ON commands`);
    await q.query(`DROP TRIGGER IF EXISTS uplinks_capture_events ON uplinks`);
    await q.query(`DROP FUNCTION IF EXISTS events_capture_image(), events_capture_command(), events_capture_uplinks(), event_wanted(integer, text)`);
    for (const table of ['integration_lanes', 'integration_deliveries', 'events', 'rule_states', 'alerts', 'alert_rules', 'integrations']) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
