/** Datamodel enumerations (docs/api.md §15). */
export interface NetworkWire {
  uid: number;
  name: string;
  description: string;
  interface: string | null;
  type_ref: number;
}

export interface NetworkDetailWire extends NetworkWire {
  lorawan_net_id: string | null;
}

export interface NetworkTypeWire {
  uid: number;
  type: string;
}

export interface NetworkByTypeEntryWire {
  uid: number;
  name: string;
  __type: string;
  __reference: string;
  manufacturer: string;
  manufacturer_ref: number;
  device_type_ref: number;
  type_name: string;
}

export interface DecoderWire {
  uid: number;
  lorawan_net_id: string | null;
  name: string;
  description: string;
  interface: string | null;
  type_ref: number | null;
}

export interface DecoderDetailWire {
  device: string;
  manufacturer: string;
}

export interface DataTypeWire {
  uid: number;
  label: string;
  alias: string;
  unit: string;
}

export interface DataTypeDetail extends DataTypeWire {
  type: number;
  exponent: string;
  offset: number;
}

export interface IconWire {
  uid: number;
  name: string;
  label: string;
}

export interface DeviceTypeWire {
  uid: number;
  type_name: string;
}

/** GET /datamodel: every enumeration in one object. */
export interface DatamodelWire {
  networks: NetworkWire[];
  network_types: NetworkTypeWire[];
  decoders: DecoderWire[];
  data_types: DataTypeWire[];
  icons: IconWire[];
  device_types: DeviceTypeWire[];
}
