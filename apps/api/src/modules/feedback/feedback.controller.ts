import { Body, Controller, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FeedbackCreatedWire } from '@dts/domain';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { CurrentAccount, PersonalRoute } from '../../common/auth/auth.decorators';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { CreateFeedbackDto, FeedbackCreatedResponse } from './dto/create-feedback.dto';
import { FeedbackService } from './feedback.service';

@ApiTags('feedback')
@PersonalRoute()
@Controller('feedback')
export class FeedbackController {
  constructor(private readonly feedback: FeedbackService) {}

  @Post()
  @ApiOperation({ summary: 'Send feedback to the operators' })
  @ApiEnvelope(FeedbackCreatedResponse, { status: 201 })
  @ApiErrors('VALIDATION_FAILED', 'MALFORMED_JSON', 'AUTH_REQUIRED')
  create(@CurrentAccount() me: AuthPrincipal, @Body() dto: CreateFeedbackDto): Promise<FeedbackCreatedWire> {
    return this.feedback.create(me, dto);
  }
}
