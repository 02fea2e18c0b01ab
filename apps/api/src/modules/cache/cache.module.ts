import { Module } from '@nestjs/common';
import { UplinksModule } from '../uplinks/uplinks.module';
import { CacheController } from './cache.controller';
import { CacheService } from './cache.service';

@Module({ imports: [UplinksModule], controllers: [CacheController], providers: [CacheService] })
export class CacheModule {}
