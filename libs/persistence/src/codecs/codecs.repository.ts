import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { CodecExampleWire } from '@dts/domain';
import { queryOne, returningRows } from '../sql/sql-results';

/** An account's codec as its routes show it (docs/api.md §13). */
export interface CodecRow {
  uid: number;
  name: string;
  description: string;
  script: string;
  examples: CodecExampleWire[];
  updated_unix: number;
}

export interface NewCodec {
  name: string;
  description: string;
  script: string;
  examples: CodecExampleWire[];
}

const CODEC_SELECT = `SELECT uid, name, description, coalesce(script, '') AS script, examples, extract(epoch FROM updated_at)::bigint::int AS updated_unix FROM decoders`;

/** Decoders an account writes itself: vendor codec scripts with their examples. */
@Injectable()
export class CodecsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  list(accountId: number): Promise<CodecRow[]> {
    return this.ds.query(`${CODEC_SELECT} WHERE account_id = $1 ORDER BY uid`, [accountId]);
  }

  /** The account's codec, or null (another account's is null too: no existence oracle). */
  get(accountId: number, uid: number): Promise<CodecRow | null> {
    return this.getIn(this.ds, accountId, uid);
  }

  async count(accountId: number): Promise<number> {
    return (await queryOne<{ n: number }>(this.ds, 'SELECT count(*)::int AS n FROM decoders WHERE account_id = $1', [accountId])).n;
  }

  /** Stores an account's codec; null when the account already has a decoder of that name (a built-in one included). */
  async create(accountId: number, codec: NewCodec): Promise<CodecRow | null> {
    const rows = await returningRows<CodecRow>(
      this.ds,
      `INSERT INTO decoders (name, description, interface, type_ref, device, manufacturer_ref, account_id, script, examples)
       SELECT $2, $3, 'javascript', NULL, 'Any device', 2, $1, $4, $5::jsonb
       WHERE NOT EXISTS (SELECT 1 FROM decoders WHERE lower(name) = lower($2) AND (account_id IS NULL OR account_id = $1))
       RETURNING uid, name, description, script, examples, extract(epoch FROM updated_at)::bigint::int AS updated_unix`,
      [accountId, codec.name, codec.description, codec.script, JSON.stringify(codec.examples)],
    );
    return rows[0] ?? null;
  }

  /**
   * Changes the given members of the account's codec. `not-found` for a codec that is not the
   * account's; `name-taken` when another decoder it can see has the new name.
   */
  async update(
    accountId: number,
    uid: number,
    patch: Partial<NewCodec>,
  ): Promise<{ ok: true; row: CodecRow } | { ok: false; reason: 'not-found' | 'name-taken' }> {
    return this.ds.transaction(async (m) => {
      if (patch.name !== undefined) {
        const taken: unknown[] = await m.query(
          'SELECT 1 FROM decoders WHERE lower(name) = lower($3) AND uid <> $2 AND (account_id IS NULL OR account_id = $1)',
          [accountId, uid, patch.name],
        );
        if (taken.length > 0)
          return (await this.getIn(m, accountId, uid))
            ? { ok: false as const, reason: 'name-taken' as const }
            : { ok: false as const, reason: 'not-found' as const };
      }
      const rows = await returningRows<CodecRow>(
        m,
        `UPDATE decoders SET name = coalesce($3, name), description = coalesce($4, description), script = coalesce($5, script),
                examples = coalesce($6::jsonb, examples), updated_at = now()
         WHERE uid = $2 AND account_id = $1
         RETURNING uid, name, description, script, examples, extract(epoch FROM updated_at)::bigint::int AS updated_unix`,
        [
          accountId,
          uid,
          patch.name ?? null,
          patch.description ?? null,
          patch.script ?? null,
          patch.examples === undefined ? null : JSON.stringify(patch.examples),
        ],
      );
      const row = rows[0];
      return row ? { ok: true as const, row } : { ok: false as const, reason: 'not-found' as const };
    });
  }

  private async getIn(m: Pick<DataSource, 'query'>, accountId: number, uid: number): Promise<CodecRow | null> {
    const rows: CodecRow[] = await m.query(`${CODEC_SELECT} WHERE account_id = $1 AND uid = $2`, [accountId, uid]);
    return rows[0] ?? null;
  }

  /** Stores the results of the codec's examples for the script they ran with (unless the script changed since). */
  async storeExampleResults(accountId: number, uid: number, script: string, examples: CodecExampleWire[]): Promise<void> {
    await this.ds.query('UPDATE decoders SET examples = $4::jsonb WHERE uid = $2 AND account_id = $1 AND script = $3', [
      accountId,
      uid,
      script,
      JSON.stringify(examples),
    ]);
  }

  async delete(accountId: number, uid: number): Promise<boolean> {
    return (await returningRows(this.ds, 'DELETE FROM decoders WHERE uid = $2 AND account_id = $1 RETURNING 1', [accountId, uid])).length > 0;
  }

  /** The live devices that decode with this decoder. */
  async deviceUids(decoderUid: number): Promise<number[]> {
    const rows: { uid: number }[] = await this.ds.query('SELECT uid FROM devices WHERE decoder_ref = $1 AND deleted_at IS NULL ORDER BY uid', [decoderUid]);
    return rows.map((r) => r.uid);
  }
}
