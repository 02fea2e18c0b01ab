import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { FEEDBACK_CATEGORIES, type FeedbackCategory, type FeedbackCreatedWire, type FeedbackRequest } from '@dts/domain';

export class CreateFeedbackDto implements FeedbackRequest {
  @ApiProperty({ minLength: 1, maxLength: 5000 })
  @IsString()
  @MinLength(1)
  @MaxLength(5000)
  message!: string;

  @ApiPropertyOptional({ enum: FEEDBACK_CATEGORIES, default: 'other' })
  @IsOptional()
  @IsIn(FEEDBACK_CATEGORIES, { message: `category must be one of ${FEEDBACK_CATEGORIES.join(', ')}` })
  category?: FeedbackCategory;

  @ApiPropertyOptional({ description: 'Where to answer, if not the account’s address.' })
  @IsOptional()
  @MaxLength(254)
  @IsEmail({}, { message: 'email must be an e-mail address' })
  email?: string;
}

export class FeedbackCreatedResponse implements FeedbackCreatedWire {
  @ApiProperty({ example: 1 }) uid!: number;
}
