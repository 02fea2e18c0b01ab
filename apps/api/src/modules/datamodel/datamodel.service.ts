import { Injectable } from '@nestjs/common';
import type { DatamodelWire, DataTypeWire, DecoderDetailWire, NetworkByTypeEntryWire, NetworkDetailWire } from '@dts/domain';
import { DatamodelRepository } from '@dts/persistence';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { ApiException } from '../../common/http/api.exception';
import { toDataTypeDetailString, toDataTypeWire, toDecoderWire, toNetworkByTypeEntryWire, toNetworkDetailWire, toNetworkWire } from './datamodel.mapper';

@Injectable()
export class DatamodelService {
  constructor(private readonly datamodel: DatamodelRepository) {}

  async everything(principal: AuthPrincipal): Promise<DatamodelWire> {
    const [networks, networkTypes, decoders, dataTypes, icons, deviceTypes] = await Promise.all([
      this.datamodel.networks(principal.accountId),
      this.datamodel.networkTypes(),
      this.datamodel.decoders(principal.accountId),
      this.datamodel.dataTypes(),
      this.datamodel.icons(),
      this.datamodel.deviceTypes(),
    ]);
    return {
      networks: networks.map(toNetworkWire),
      network_types: networkTypes,
      decoders: decoders.map(toDecoderWire),
      data_types: dataTypes.map(toDataTypeWire),
      icons,
      device_types: deviceTypes,
    };
  }

  async networks(principal: AuthPrincipal) {
    return (await this.datamodel.networks(principal.accountId)).map(toNetworkWire);
  }

  networkTypes() {
    return this.datamodel.networkTypes();
  }

  async network(principal: AuthPrincipal, uid: number): Promise<NetworkDetailWire> {
    const row = await this.datamodel.network(principal.accountId, uid);
    if (!row) throw ApiException.notFound('network', 'uid');
    return toNetworkDetailWire(row);
  }

  async networkByType(typeRef: number): Promise<NetworkByTypeEntryWire[]> {
    if (!(await this.datamodel.networkTypeExists(typeRef))) throw ApiException.notFound('network type', 'uid');
    return (await this.datamodel.deviceModels(typeRef)).map(toNetworkByTypeEntryWire);
  }

  async decoders(principal: AuthPrincipal) {
    return (await this.datamodel.decoders(principal.accountId)).map(toDecoderWire);
  }

  async decoder(principal: AuthPrincipal, uid: number): Promise<DecoderDetailWire> {
    const row = await this.datamodel.decoder(principal.accountId, uid);
    if (!row) throw ApiException.notFound('decoder', 'decoder_id');
    return { device: row.device, manufacturer: row.manufacturer };
  }

  async dataTypes(): Promise<DataTypeWire[]> {
    return (await this.datamodel.dataTypes()).map(toDataTypeWire);
  }

  async dataType(uid: number): Promise<string> {
    const row = (await this.datamodel.dataTypes()).find((t) => t.uid === uid);
    if (!row) throw ApiException.notFound('data type', 'type_id');
    return toDataTypeDetailString(row);
  }

  /** The data types that occur in the data of the caller's devices. */
  async dataTypesInUse(principal: AuthPrincipal): Promise<DataTypeWire[]> {
    const used = new Set(await this.datamodel.aliasesInUse(principal.accountId));
    return (await this.datamodel.dataTypes()).filter((t) => used.has(t.alias)).map(toDataTypeWire);
  }

  icons() {
    return this.datamodel.icons();
  }

  deviceTypes() {
    return this.datamodel.deviceTypes();
  }
}
