import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { TokensModule } from '../tokens/tokens.module';
import { DemoSeeder } from './demo.seeder';

@Module({ imports: [AuthModule, TokensModule], providers: [DemoSeeder] })
export class DemoModule {}
