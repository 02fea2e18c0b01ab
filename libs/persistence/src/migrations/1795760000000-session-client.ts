import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a session's owner is shown of it in GET /user/session ("where you are signed in"): the user
 * agent and client address seen at sign-in. Sessions started before this have neither (null).
 */
export class SessionClient1795760000000 implements MigrationInterface {
  name = 'SessionClient1795760000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sessions ADD COLUMN user_agent text, ADD COLUMN client_ip text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sessions DROP COLUMN user_agent, DROP COLUMN client_ip`);
  }
}
