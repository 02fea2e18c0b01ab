import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { HttpJsonMappingWire, NetworkAdapter } from '@dts/domain';
import { DataSource } from 'typeorm';
import { onlyRow, returningRows } from '../sql/sql-results';

export interface AccountNetworkRow {
  uid: number;
  name: string;
  adapter: NetworkAdapter;
  base_url: string | null;
  application_id: string | null;
  webhook_id: string | null;
  ingest_mapping: HttpJsonMappingWire | null;
  created_at: Date;
}

export interface NewAccountNetwork {
  name: string;
  adapter: NetworkAdapter;
  description: string;
  baseUrl: string | null;
  apiKeyEncrypted: Buffer | null;
  applicationId: string | null;
  webhookId: string | null;
  ingestMapping: HttpJsonMappingWire | null;
}

/** What an ingest route needs of a network: its kind, whose it is, and its mapping. */
export interface IngestNetworkRow {
  uid: number;
  adapter: string;
  account_id: number | null;
  ingest_mapping: unknown;
}

const COLUMNS = 'uid, name, adapter, base_url, application_id, webhook_id, ingest_mapping, created_at';

/**
 * Networks an account configures of its own: the kinds whose registry entry (libs/domain
 * networks/registry.ts) has `account`; what each row holds is the api's to decide from that entry.
 */
@Injectable()
export class NetworksRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  list(accountId: number): Promise<AccountNetworkRow[]> {
    return this.ds.query(`SELECT ${COLUMNS} FROM networks WHERE account_id = $1 ORDER BY uid`, [accountId]);
  }

  async create(accountId: number, n: NewAccountNetwork): Promise<AccountNetworkRow> {
    return onlyRow(
      await returningRows<AccountNetworkRow>(
        this.ds,
        `INSERT INTO networks (name, description, interface, type_ref, adapter, account_id, base_url, api_key_encrypted, application_id, webhook_id, ingest_mapping)
       VALUES ($2, $3, 'REST', 1, $4, $1, $5, $6, $7, $8, $9)
       RETURNING ${COLUMNS}`,
        [
          accountId,
          n.name,
          n.description,
          n.adapter,
          n.baseUrl,
          n.apiKeyEncrypted,
          n.applicationId,
          n.webhookId,
          n.ingestMapping === null ? null : JSON.stringify(n.ingestMapping),
        ],
      ),
    );
  }

  async delete(accountId: number, uid: number): Promise<boolean> {
    return (await returningRows(this.ds, 'DELETE FROM networks WHERE uid = $2 AND account_id = $1 RETURNING 1', [accountId, uid])).length > 0;
  }

  /** A network by uid, global or any account's: the ingest route decides who may use it. */
  async forIngest(uid: number): Promise<IngestNetworkRow | null> {
    const rows: IngestNetworkRow[] = await this.ds.query('SELECT uid, adapter, account_id, ingest_mapping FROM networks WHERE uid = $1', [uid]);
    return rows[0] ?? null;
  }
}
