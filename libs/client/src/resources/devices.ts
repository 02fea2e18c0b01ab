import type {
  CreateFenceRequest,
  DatamodelWire,
  DataTypeWire,
  DecoderDetailWire,
  DecoderWire,
  DeviceListMetaWire,
  DeviceListQuery,
  DeviceMetaUpdateRequest,
  DeviceImportWire,
  DeviceMetaWire,
  DeviceRegisterRequest,
  DeviceRelationWire,
  DeviceRemovedWire,
  DeviceShareEntryWire,
  DeviceShareWire,
  DeviceTypeWire,
  DeviceUnsharedWire,
  FenceDeviceWire,
  FenceWire,
  GatewayWire,
  HandoverClosedWire,
  HandoverOffersWire,
  HandoverOfferWire,
  IconWire,
  NetworkByTypeEntryWire,
  NetworkDetailWire,
  NetworkTypeWire,
  NetworkWire,
  UpdateFenceRequest,
} from '@dts/domain';
import { ROUTES } from '../routes';
import type { Transport } from '../transport';
import { query } from './request-helpers';

export const devicesApi = (t: Transport) => ({
  /** The EUIs of the caller's own and shared devices. */
  list: () => t.data<string[]>(ROUTES.devicesList),
  autocomplete: (q: string) => t.data<string[]>(ROUTES.devicesAutocomplete, { query: { q } }),
  /** 201 with the device's metadata. */
  register: (eui: string, body: DeviceRegisterRequest = {}) => t.data<DeviceMetaWire>(ROUTES.devicesRegister, { params: { eui }, body }),
  remove: (eui: string) => t.data<DeviceRemovedWire>(ROUTES.devicesRemove, { params: { eui } }),
  /**
   * Registers many devices at once, all or none: an array of rows, CSV text (with its header line),
   * or a The Things Stack or ChirpStack device export. `dryRun` checks every row and stores nothing.
   */
  import: (rows: unknown, options: { dryRun?: boolean; signal?: AbortSignal } = {}) =>
    t.data<DeviceImportWire>(ROUTES.devicesImport, {
      query: { dry_run: options.dryRun ? 'true' : undefined },
      ...(typeof rows === 'string' ? { text: { type: 'text/csv', body: rows } } : { body: rows }),
      signal: options.signal,
    }),
  /** How the account `uid` relates to the device. */
  relation: (eui: string, uid: number) => t.data<DeviceRelationWire>(ROUTES.devicesRelation, { params: { eui, uid } }),
  /** The accounts the device is shared with (owner only). */
  shares: (eui: string) => t.data<DeviceShareEntryWire[]>(ROUTES.devicesShares, { params: { eui } }),
  share: (eui: string, username: string) => t.data<DeviceShareWire>(ROUTES.devicesShare, { params: { eui }, body: { username } }),
  unshare: (eui: string, uid: number) => t.data<DeviceUnsharedWire>(ROUTES.devicesUnshare, { params: { eui, uid } }),
  /** Data types that occur in the caller's devices' data. */
  dataTypes: () => t.data<DataTypeWire[]>(ROUTES.devicesDataTypes),
});

export const handoversApi = (t: Transport) => ({
  list: () => t.data<HandoverOffersWire>(ROUTES.handoversList),
  offer: (eui: string, username: string) => t.data<HandoverOfferWire>(ROUTES.handoversOffer, { params: { eui }, body: { username } }),
  /** The device's metadata, now the caller's. */
  accept: (eui: string) => t.data<DeviceMetaWire>(ROUTES.handoversAccept, { params: { eui } }),
  decline: (eui: string) => t.data<HandoverClosedWire>(ROUTES.handoversDecline, { params: { eui } }),
  withdraw: (eui: string) => t.data<HandoverClosedWire>(ROUTES.handoversWithdraw, { params: { eui } }),
});

export const metaApi = (t: Transport) => ({
  all: () => t.data<DeviceMetaWire[]>(ROUTES.metaAll),
  /** A filtered, sorted page of the device list; `meta.next_cursor` is the next page's `cursor`. */
  list: async (q: DeviceListQuery) => {
    const res = await t.request<DeviceMetaWire[], DeviceListMetaWire>(ROUTES.metaAll, { query: query(q) });
    return { devices: res.data, meta: res.meta };
  },
  /** The spec answers a list of one. */
  get: (eui: string) => t.data<DeviceMetaWire[]>(ROUTES.metaGet, { params: { eui } }),
  update: (eui: string, body: DeviceMetaUpdateRequest) => t.data<DeviceMetaWire[]>(ROUTES.metaUpdate, { params: { eui }, body }),
});

export const datamodelApi = (t: Transport) => ({
  all: () => t.data<DatamodelWire>(ROUTES.datamodelAll),
  networks: () => t.data<NetworkWire[]>(ROUTES.datamodelNetworks),
  network: (uid: number) => t.data<NetworkDetailWire>(ROUTES.datamodelNetwork, { params: { uid } }),
  networkTypes: () => t.data<NetworkTypeWire[]>(ROUTES.datamodelNetworkTypes),
  networksByType: (uid: number) => t.data<NetworkByTypeEntryWire[]>(ROUTES.datamodelNetworksByType, { params: { uid } }),
  decoders: () => t.data<DecoderWire[]>(ROUTES.datamodelDecoders),
  decoder: (id: number) => t.data<DecoderDetailWire>(ROUTES.datamodelDecoder, { params: { decoder_id: id } }),
  dataTypes: () => t.data<DataTypeWire[]>(ROUTES.datamodelDataTypes),
  /** The data type's label. */
  dataType: (id: number) => t.data<string>(ROUTES.datamodelDataType, { params: { type_id: id } }),
  icons: () => t.data<IconWire[]>(ROUTES.datamodelIcons),
  deviceTypes: () => t.data<DeviceTypeWire[]>(ROUTES.datamodelDeviceTypes),
});

export const fencesApi = (t: Transport) => ({
  list: () => t.data<FenceWire[]>(ROUTES.fencesList),
  get: (uid: number) => t.data<FenceWire>(ROUTES.fencesGet, { params: { uid } }),
  create: (body: CreateFenceRequest) => t.data<FenceWire>(ROUTES.fencesCreate, { body }),
  remove: (uid: number) => t.data<{ uid: number; deleted: true }>(ROUTES.fencesRemove, { params: { uid } }),
  /** A new name, a new shape, or both. */
  update: (uid: number, body: UpdateFenceRequest) => t.data<FenceWire>(ROUTES.fencesUpdate, { params: { uid }, body }),
  /** The account's devices inside the fence (last reported position, else installation position). */
  devices: (uid: number) => t.data<FenceDeviceWire[]>(ROUTES.fencesDevices, { params: { uid } }),
});

export const gatewaysApi = (t: Transport) => ({
  /** Gateways that heard the caller's devices, on every network or on one. */
  list: (networkRef?: number) =>
    networkRef === undefined
      ? t.data<GatewayWire[]>(ROUTES.gatewaysList)
      : t.data<GatewayWire[]>(ROUTES.gatewaysByNetwork, { params: { network_ref: networkRef } }),
});
