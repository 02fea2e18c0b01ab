import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { FeedbackEntity } from './feedback.entity';

@Injectable()
export class FeedbackRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async create(input: Pick<FeedbackEntity, 'accountId' | 'message' | 'category' | 'email'>): Promise<FeedbackEntity> {
    const repo = this.ds.getRepository(FeedbackEntity);
    return repo.save(repo.create(input));
  }

  findById(uid: number): Promise<FeedbackEntity | null> {
    return this.ds.getRepository(FeedbackEntity).findOneBy({ uid });
  }
}
