import type { DataTypeDetail, DataTypeWire, DecoderWire, NetworkByTypeEntryWire, NetworkDetailWire, NetworkWire } from '@dts/domain';
import type { DataTypeRow, DecoderRow, DeviceModelRow, NetworkRow } from '@dts/persistence';

export function toNetworkWire(row: NetworkRow): NetworkWire {
  return { uid: row.uid, name: row.name, description: row.description, interface: row.interface, type_ref: row.type_ref };
}

export function toNetworkDetailWire(row: NetworkRow): NetworkDetailWire {
  return { ...toNetworkWire(row), lorawan_net_id: row.lorawan_net_id };
}

export function toNetworkByTypeEntryWire(row: DeviceModelRow): NetworkByTypeEntryWire {
  return {
    uid: row.uid,
    name: row.name,
    __type: 'device_model',
    __reference: row.reference,
    manufacturer: row.manufacturer,
    manufacturer_ref: row.manufacturer_ref,
    device_type_ref: row.device_type_ref,
    type_name: row.type_name,
  };
}

export function toDecoderWire(row: DecoderRow): DecoderWire {
  return { uid: row.uid, lorawan_net_id: row.lorawan_net_id, name: row.name, description: row.description, interface: row.interface, type_ref: row.type_ref };
}

export function toDataTypeWire(row: DataTypeRow): DataTypeWire {
  return { uid: row.uid, label: row.label, alias: row.alias, unit: row.unit };
}

/** The spec shows the detail as a string holding JSON: kept as it is for clients that parse it. */
export function toDataTypeDetailString(row: DataTypeRow): string {
  const detail: DataTypeDetail = { ...toDataTypeWire(row), type: row.type, exponent: row.exponent, offset: row.offset };
  return JSON.stringify(detail);
}
