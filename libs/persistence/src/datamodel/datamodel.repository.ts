import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { COLUMN_DATA_TYPES } from '@dts/domain';
import { DataSource } from 'typeorm';

/** Data types of the decoded payload whose presence the data types in use report (one that gets a column is read from it). */
const DECODED_ALIASES = ['pressure', 'illuminance', 'co2', 'ttf', 'dop', 'photos'];

export interface NetworkRow {
  uid: number;
  name: string;
  description: string;
  interface: string | null;
  type_ref: number;
  lorawan_net_id: string | null;
}

export interface NetworkTypeRow {
  uid: number;
  type: string;
}

export interface DeviceModelRow {
  uid: number;
  name: string;
  reference: string;
  manufacturer: string;
  manufacturer_ref: number;
  device_type_ref: number;
  type_name: string;
}

export interface DecoderRow {
  uid: number;
  /** The account a codec belongs to; null for the built-in decoders. */
  account_id: number | null;
  script: string | null;
  name: string;
  description: string;
  interface: string | null;
  type_ref: number | null;
  lorawan_net_id: string | null;
  device: string;
  manufacturer: string;
}

export interface DataTypeRow {
  uid: number;
  label: string;
  alias: string;
  unit: string;
  type: number;
  exponent: string;
  offset: number;
}

export interface IconRow {
  uid: number;
  name: string;
  label: string;
}

export interface DeviceTypeRow {
  uid: number;
  type_name: string;
}

const DECODER_SELECT = `SELECT d.uid, d.account_id, d.script, d.name, d.description, d.interface, d.type_ref, d.lorawan_net_id, d.device, f.name AS manufacturer
  FROM decoders d JOIN manufacturers f ON f.uid = d.manufacturer_ref`;

/** The enumerations seeded by migrations; networks and decoders are global or the account's own. */
@Injectable()
export class DatamodelRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  networks(accountId: number): Promise<NetworkRow[]> {
    return this.ds.query(
      'SELECT uid, name, description, interface, type_ref, lorawan_net_id FROM networks WHERE account_id IS NULL OR account_id = $1 ORDER BY uid',
      [accountId],
    );
  }

  async network(accountId: number, uid: number): Promise<NetworkRow | null> {
    const rows: NetworkRow[] = await this.ds.query(
      'SELECT uid, name, description, interface, type_ref, lorawan_net_id FROM networks WHERE uid = $2 AND (account_id IS NULL OR account_id = $1)',
      [accountId, uid],
    );
    return rows[0] ?? null;
  }

  networkTypes(): Promise<NetworkTypeRow[]> {
    return this.ds.query('SELECT uid, type FROM network_types ORDER BY uid');
  }

  async networkTypeExists(uid: number): Promise<boolean> {
    return ((await this.ds.query('SELECT 1 FROM network_types WHERE uid = $1', [uid])) as unknown[]).length > 0;
  }

  /** The device models available on a network type. */
  deviceModels(networkTypeRef: number): Promise<DeviceModelRow[]> {
    return this.ds.query(
      `SELECT m.uid, m.name, m.reference, f.name AS manufacturer, m.manufacturer_ref, m.device_type_ref, t.type_name
       FROM device_models m JOIN manufacturers f ON f.uid = m.manufacturer_ref JOIN device_types t ON t.uid = m.device_type_ref
       WHERE m.network_type_ref = $1 ORDER BY m.uid`,
      [networkTypeRef],
    );
  }

  /** The built-in decoders and the account's own codecs. */
  decoders(accountId: number): Promise<DecoderRow[]> {
    return this.ds.query(`${DECODER_SELECT} WHERE d.account_id IS NULL OR d.account_id = $1 ORDER BY d.uid`, [accountId]);
  }

  /** A decoder the account may use (built-in or its own). */
  async decoder(accountId: number, uid: number): Promise<DecoderRow | null> {
    const rows: DecoderRow[] = await this.ds.query(`${DECODER_SELECT} WHERE d.uid = $2 AND (d.account_id IS NULL OR d.account_id = $1)`, [accountId, uid]);
    return rows[0] ?? null;
  }

  /** Any decoder by uid, whoever it belongs to: for decoding a device's uplinks in the worker. */
  async decoderByUid(uid: number): Promise<DecoderRow | null> {
    const rows: DecoderRow[] = await this.ds.query(`${DECODER_SELECT} WHERE d.uid = $1`, [uid]);
    return rows[0] ?? null;
  }

  dataTypes(): Promise<DataTypeRow[]> {
    return this.ds.query('SELECT uid, label, alias, unit, type, exponent, "offset" FROM data_types ORDER BY uid');
  }

  icons(): Promise<IconRow[]> {
    return this.ds.query('SELECT uid, name, label FROM icons ORDER BY uid');
  }

  deviceTypes(): Promise<DeviceTypeRow[]> {
    return this.ds.query('SELECT uid, type_name FROM device_types ORDER BY uid');
  }

  /**
   * The data types that occur in the uplinks of the account's devices: one pass over their
   * history with an aggregate per measurement column.
   */
  async aliasesInUse(accountId: number): Promise<string[]> {
    const rows: Record<string, boolean | null>[] = await this.ds.query(
      `${ALIASES_PRESENT}
       FROM uplinks u JOIN devices d ON d.uid = u.device_id
       WHERE d.deleted_at IS NULL AND (d.owner_id = $1 OR EXISTS (SELECT 1 FROM device_shares s WHERE s.device_id = d.uid AND s.account_id = $1))`,
      [accountId],
    );
    return presentAliases(rows);
  }

  /** The data types that occur in one device's uplinks (the columns of its CSV export). */
  async aliasesInDeviceData(deviceUid: number): Promise<string[]> {
    return presentAliases(await this.ds.query(`${ALIASES_PRESENT} FROM uplinks u WHERE u.device_id = $1`, [deviceUid]));
  }
}

/**
 * One aggregate per data type alias: whether any uplink of those read has it. The aliases stored in
 * columns are COLUMN_DATA_TYPES of libs/domain; the others are members of the decoded payload.
 */
const ALIASES_PRESENT = `SELECT ${[
  ...Object.entries(COLUMN_DATA_TYPES).map(([alias, column]) => `bool_or(u.${column} IS NOT NULL) AS "${alias}"`),
  ...DECODED_ALIASES.filter((alias) => !Object.hasOwn(COLUMN_DATA_TYPES, alias)).map((alias) => `bool_or(u.decoded ? '${alias}') AS "${alias}"`),
].join(', ')}`;

function presentAliases(rows: Record<string, boolean | null>[]): string[] {
  return Object.entries(rows[0] ?? {})
    .filter(([, present]) => present === true)
    .map(([alias]) => alias);
}
