import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The decoder's errors and warnings kept with each uplink (`payload_errors`, `payload_warnings`,
 * docs/api.md §5), in place of the one `decode_error` text and of the codec warnings that used to
 * ride inside the decoded payload as `_warnings`. Existing rows keep what they had: the error text
 * becomes a list of one, `_warnings` moves out of `decoded`. Null means none (never an empty array),
 * so the partial index holds only the uplinks with something to say, for the table's `issues` filter.
 */
export class UplinkPayloadProblems1795771000000 implements MigrationInterface {
  name = 'UplinkPayloadProblems1795771000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE uplinks ADD COLUMN payload_errors text[], ADD COLUMN payload_warnings text[]`);
    await q.query(`UPDATE uplinks SET payload_errors = ARRAY[decode_error] WHERE decode_error IS NOT NULL`);
    await q.query(
      `UPDATE uplinks SET payload_warnings = ARRAY(SELECT jsonb_array_elements_text(decoded->'_warnings')), decoded = decoded - '_warnings'
       WHERE decoded ? '_warnings' AND jsonb_typeof(decoded->'_warnings') = 'array'`,
    );
    await q.query(`UPDATE uplinks SET payload_warnings = NULL WHERE cardinality(payload_warnings) = 0`);
    await q.query(`ALTER TABLE uplinks DROP COLUMN decode_error`);
    await q.query(
      `CREATE INDEX uplinks_payload_problems ON uplinks (device_id, received_at, uid) WHERE payload_errors IS NOT NULL OR payload_warnings IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX uplinks_payload_problems`);
    await q.query(`ALTER TABLE uplinks ADD COLUMN decode_error text`);
    await q.query(`UPDATE uplinks SET decode_error = array_to_string(payload_errors, '; ') WHERE payload_errors IS NOT NULL`);
    await q.query(
      `UPDATE uplinks SET decoded = coalesce(decoded, '{}'::jsonb) || jsonb_build_object('_warnings', to_jsonb(payload_warnings)) WHERE payload_warnings IS NOT NULL`,
    );
    await q.query(`ALTER TABLE uplinks DROP COLUMN payload_errors, DROP COLUMN payload_warnings`);
  }
}
