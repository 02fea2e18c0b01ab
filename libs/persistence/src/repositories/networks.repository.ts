import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { returningRows } from './sql-results';

export interface AccountNetworkRow {
  uid: number;
  name: string;
  adapter: 'ttn' | 'chirpstack';
  base_url: string;
  application_id: string | null;
  webhook_id: string | null;
  created_at: Date;
}

export interface NewAccountNetwork {
  name: string;
  adapter: 'ttn' | 'chirpstack';
  baseUrl: string;
  apiKeyEncrypted: Buffer;
  applicationId: string | null;
  webhookId: string | null;
}

/** Networks an account configures for downlinks: its own ChirpStack or The Things Stack. */
@Injectable()
export class NetworksRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  list(accountId: number): Promise<AccountNetworkRow[]> {
    return this.ds.query('SELECT uid, name, adapter, base_url, application_id, webhook_id, created_at FROM networks WHERE account_id = $1 ORDER BY uid', [accountId]);
  }

  async create(accountId: number, n: NewAccountNetwork): Promise<AccountNetworkRow> {
    const [row] = await returningRows<AccountNetworkRow>(
      this.ds,
      `INSERT INTO networks (name, description, interface, type_ref, adapter, account_id, base_url, api_key_encrypted, application_id, webhook_id)
       VALUES ($2, $3, 'REST', 1, $4, $1, $5, $6, $7, $8)
       RETURNING uid, name, adapter, base_url, application_id, webhook_id, created_at`,
      [accountId, n.name, `${n.adapter === 'ttn' ? 'The Things Stack' : 'ChirpStack'} at ${n.baseUrl}`, n.adapter, n.baseUrl, n.apiKeyEncrypted, n.applicationId, n.webhookId],
    );
    return row;
  }

  async delete(accountId: number, uid: number): Promise<boolean> {
    return (await returningRows(this.ds, 'DELETE FROM networks WHERE uid = $2 AND account_id = $1 RETURNING 1', [accountId, uid])).length > 0;
  }
}
