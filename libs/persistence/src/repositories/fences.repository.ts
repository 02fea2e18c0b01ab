import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { returningRows } from './sql-results';

export interface FenceRow {
  uid: number;
  name: string;
  geometry: unknown;
  created_at: Date;
}

@Injectable()
export class FencesRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  list(accountId: number): Promise<FenceRow[]> {
    return this.ds.query('SELECT uid, name, geometry, created_at FROM fences WHERE account_id = $1 ORDER BY uid', [accountId]);
  }

  async find(accountId: number, uid: number): Promise<FenceRow | null> {
    const rows: FenceRow[] = await this.ds.query('SELECT uid, name, geometry, created_at FROM fences WHERE account_id = $1 AND uid = $2', [accountId, uid]);
    return rows[0] ?? null;
  }

  async create(accountId: number, name: string, geometry: unknown): Promise<FenceRow> {
    const rows: FenceRow[] = await this.ds.query(
      'INSERT INTO fences (account_id, name, geometry) VALUES ($1, $2, $3) RETURNING uid, name, geometry, created_at',
      [accountId, name, JSON.stringify(geometry)],
    );
    return rows[0];
  }

  async delete(accountId: number, uid: number): Promise<boolean> {
    const rows = await returningRows(this.ds, 'DELETE FROM fences WHERE account_id = $1 AND uid = $2 RETURNING 1', [accountId, uid]);
    return rows.length > 0;
  }
}
