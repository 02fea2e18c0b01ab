import { Module, type OnApplicationBootstrap } from '@nestjs/common';
import { ThrottlingModule } from '../../common/throttling/throttling.module';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';

@Module({
  imports: [ThrottlingModule],
  controllers: [AuthController],
  providers: [AuthService],
  exports: [AuthService],
})
export class AuthModule implements OnApplicationBootstrap {
  constructor(private readonly auth: AuthService) {}

  onApplicationBootstrap(): Promise<void> {
    return this.auth.ensureAdmin();
  }
}
