import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit log (docs/api.md §8, docs/architecture.md "The audit log"): one row per state-changing
 * call and per sign-in. Partitioned by RANGE (at) like the uplinks (TIME_PARTITIONED: the worker
 * keeps partitions ahead and drops the ones AUDIT_RETENTION_DAYS has passed), so that years of it
 * leave a month at a time, never by a DELETE over the table. No foreign keys: a record outlives the
 * account and the token it names (that is its point), and a dropped partition locks nothing else.
 * The first partition, `audit_events_history`, runs to the first month boundary after now.
 */
export class AuditLog1795840000000 implements MigrationInterface {
  name = 'AuditLog1795840000000';

  async up(q: QueryRunner): Promise<void> {
    const [{ bound }] = (await q.query(`SELECT (date_trunc('month', now(), 'UTC') + interval '1 month')::text AS bound`)) as [{ bound: string }];
    await q.query(`CREATE SEQUENCE audit_events_id_seq AS bigint`);
    await q.query(`
      CREATE TABLE audit_events (
        id         bigint NOT NULL DEFAULT nextval('audit_events_id_seq'),
        at         timestamptz NOT NULL,
        account_id integer,
        username   text,
        token_uid  integer,
        via        text CHECK (via IN ('session', 'token')),
        action     text NOT NULL,
        target     jsonb NOT NULL DEFAULT '{}',
        status     smallint NOT NULL,
        ip         text,
        request_id text,
        PRIMARY KEY (at, id)
      ) PARTITION BY RANGE (at)`);
    await q.query(`ALTER SEQUENCE audit_events_id_seq OWNED BY audit_events.id`);
    await q.query(`CREATE TABLE audit_events_history PARTITION OF audit_events FOR VALUES FROM (MINVALUE) TO ('${bound}')`);
    // The two filters an administrator narrows by most; the time order is the primary key's.
    await q.query(`CREATE INDEX audit_events_account_idx ON audit_events (account_id, at, id)`);
    await q.query(`CREATE INDEX audit_events_username_idx ON audit_events (lower(username), at, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE audit_events`);
  }
}
