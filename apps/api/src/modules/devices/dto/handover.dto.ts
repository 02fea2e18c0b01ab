import { ApiProperty } from '@nestjs/swagger';
import type { HandoverClosedWire, HandoverOffersWire, HandoverOfferWire, HandoverPartyWire, DeviceShareEntryWire } from '@dts/domain';

export class HandoverPartyResponse implements HandoverPartyWire {
  @ApiProperty() user_id!: number;
  @ApiProperty() username!: string;
}

export class HandoverOfferResponse implements HandoverOfferWire {
  @ApiProperty() devEUI!: string;
  @ApiProperty() label!: string;
  @ApiProperty({ type: HandoverPartyResponse, description: 'The owner that offers the device.' }) from!: HandoverPartyResponse;
  @ApiProperty({ type: HandoverPartyResponse, description: 'The account the device is offered to.' }) to!: HandoverPartyResponse;
  @ApiProperty() created_unix!: number;
}

export class HandoverOffersResponse implements HandoverOffersWire {
  @ApiProperty({ type: [HandoverOfferResponse], description: 'Offers to the caller: accept or decline them.' }) received!: HandoverOfferResponse[];
  @ApiProperty({ type: [HandoverOfferResponse], description: 'Offers the caller made: withdraw them.' }) made!: HandoverOfferResponse[];
}

export class HandoverClosedResponse implements HandoverClosedWire {
  @ApiProperty() devEUI!: string;
  @ApiProperty({ enum: ['declined', 'withdrawn'] }) outcome!: 'declined' | 'withdrawn';
}

export class DeviceShareEntryResponse implements DeviceShareEntryWire {
  @ApiProperty() user_id!: number;
  @ApiProperty() username!: string;
}
