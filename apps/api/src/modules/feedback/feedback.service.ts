import { Injectable } from '@nestjs/common';
import type { FeedbackCreatedWire } from '@dts/domain';
import { FeedbackRepository } from '@dts/persistence';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import type { CreateFeedbackDto } from './dto/create-feedback.dto';

@Injectable()
export class FeedbackService {
  constructor(private readonly feedback: FeedbackRepository) {}

  async create(principal: AuthPrincipal, dto: CreateFeedbackDto): Promise<FeedbackCreatedWire> {
    const row = await this.feedback.create({
      accountId: principal.accountId,
      message: dto.message,
      category: dto.category ?? 'other',
      email: dto.email ?? null,
    });
    return { uid: row.uid };
  }
}
