import { ApiProperty } from '@nestjs/swagger';
import {
  type AvailableCommandWire,
  type CommandCancelledWire,
  type CommandKeptWire,
  COMMAND_STATUSES,
  type CommandsFlushedWire,
  type CommandStatus,
  type CommandWire,
} from '@dts/domain';

export class CommandResponse implements CommandWire {
  @ApiProperty() uid!: number;
  @ApiProperty({ example: '2026-05-01 12:00:00' }) time_stamp!: string;
  @ApiProperty({ enum: COMMAND_STATUSES }) status!: CommandStatus;
  @ApiProperty({ example: 'ChirpStack' }) network!: string;
  @ApiProperty() devEUI!: string;
  @ApiProperty({ enum: [0, 1] }) confirmed!: 0 | 1;
  @ApiProperty() port!: number;
  @ApiProperty() payload_base64!: string;
  @ApiProperty() payload_hex!: string;
  @ApiProperty() payload_ASCII!: string;
  @ApiProperty({ type: String, nullable: true, description: 'Why it failed.' }) reason!: string | null;
}

export class AvailableCommandResponse implements AvailableCommandWire {
  @ApiProperty({ example: 'set_interval' }) name!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ type: 'integer', nullable: true, description: 'FPort it is sent on; null when the codec decides.' }) port!: number | null;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Parameter schemas by name.' }) params!: Record<string, unknown>;
}

export class CommandCancelledResponse implements CommandCancelledWire {
  @ApiProperty() uid!: number;
  @ApiProperty({ enum: ['Cancelled'] }) status!: 'Cancelled';
}

export class CommandKeptResponse implements CommandKeptWire {
  @ApiProperty() uid!: number;
  @ApiProperty({ enum: COMMAND_STATUSES, description: 'Its status now.' }) status!: CommandStatus;
  @ApiProperty({ example: 'the command is Sent: it was already handed to the device' }) reason!: string;
}

export class CommandsFlushedResponse implements CommandsFlushedWire {
  @ApiProperty() devEUI!: string;
  @ApiProperty({ type: [Number], description: 'The commands cancelled, oldest first.' }) cancelled!: number[];
  @ApiProperty({ type: [CommandKeptResponse], description: 'The ones that could not be, with why.' }) kept!: CommandKeptResponse[];
}
