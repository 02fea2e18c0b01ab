import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ADMIN_DEVICE_FATES, type AdminAccountDeletedWire, type AdminAccountDeleteQuery, type AdminDeviceFate } from '@dts/domain';
import { IsIn, IsString, MaxLength, MinLength, ValidateIf } from 'class-validator';

/*
 * Deleting an account with what it owns (AuthService.removeAccount): an administrator's
 * DELETE /admin/accounts/{id}, an owner's DELETE /org/{uid}. Here, with the service that does it.
 */

/** What becomes of the account's devices, always said. */
export class AdminAccountDeleteQueryDto implements AdminAccountDeleteQuery {
  @ApiProperty({
    enum: ADMIN_DEVICE_FATES,
    description:
      '`delete`: the devices and their data go with the account. `hand_over`: every device goes to the account `to` first (within its device limit, or nothing happens).',
  })
  @IsIn(ADMIN_DEVICE_FATES, { message: `devices must be one of ${ADMIN_DEVICE_FATES.join(', ')}` })
  devices!: AdminDeviceFate;

  @ApiPropertyOptional({ description: 'With `devices=hand_over`: the username of the receiving account.' })
  @ValidateIf((query: AdminAccountDeleteQueryDto, value) => value !== undefined || query.devices === 'hand_over')
  @IsString({ message: 'to must be the username of the account that receives the devices' })
  @MinLength(1, { message: 'to must be the username of the account that receives the devices' })
  @MaxLength(64)
  to?: string;
}

export class AdminAccountDeletedResponse implements AdminAccountDeletedWire {
  @ApiProperty() id!: number;
  @ApiProperty({ enum: [true] }) deleted!: true;
  @ApiProperty({ description: 'Devices deleted with the account.' }) devices_deleted!: number;
  @ApiProperty({ description: 'Devices handed to `to`; a codec or network of the deleted account falls back to the default one.' })
  devices_handed_over!: number;
  @ApiProperty({ type: 'integer', nullable: true, description: 'The receiving account’s id, with `hand_over`.' }) to!: number | null;
}
