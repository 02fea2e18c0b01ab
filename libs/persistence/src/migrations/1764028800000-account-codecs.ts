import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Decoders an account writes itself (vendor JavaScript codecs): decoders may belong to an account
 * and carry a script. Names are unique per owner; deleting a codec leaves its devices undecoded.
 */
export class AccountCodecs1764028800000 implements MigrationInterface {
  name = 'AccountCodecs1764028800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE decoders ADD COLUMN account_id integer REFERENCES accounts(id) ON DELETE CASCADE, ADD COLUMN script text, ADD COLUMN created_at timestamptz NOT NULL DEFAULT now()`,
    );
    await q.query(`CREATE SEQUENCE decoders_uid_seq START WITH 1000 OWNED BY decoders.uid`);
    await q.query(`ALTER TABLE decoders ALTER COLUMN uid SET DEFAULT nextval('decoders_uid_seq')`);
    await q.query(`ALTER TABLE decoders DROP CONSTRAINT decoders_name_key`);
    await q.query(`CREATE UNIQUE INDEX decoders_owner_name_idx ON decoders (coalesce(account_id, 0), lower(name))`);
    await q.query(`CREATE INDEX decoders_account_idx ON decoders (account_id)`);
    await q.query(`ALTER TABLE devices DROP CONSTRAINT devices_decoder_ref_fkey`);
    await q.query(`ALTER TABLE devices ADD CONSTRAINT devices_decoder_ref_fkey FOREIGN KEY (decoder_ref) REFERENCES decoders(uid) ON DELETE SET NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM decoders WHERE account_id IS NOT NULL`);
    await q.query(`ALTER TABLE devices DROP CONSTRAINT devices_decoder_ref_fkey`);
    await q.query(`ALTER TABLE devices ADD CONSTRAINT devices_decoder_ref_fkey FOREIGN KEY (decoder_ref) REFERENCES decoders(uid)`);
    await q.query(`DROP INDEX decoders_owner_name_idx`);
    await q.query(`ALTER TABLE decoders ADD CONSTRAINT decoders_name_key UNIQUE (name)`);
    await q.query(`ALTER TABLE decoders ALTER COLUMN uid DROP DEFAULT`);
    await q.query(`DROP SEQUENCE decoders_uid_seq`);
    await q.query(`ALTER TABLE decoders DROP COLUMN account_id, DROP COLUMN script, DROP COLUMN created_at`);
  }
}
