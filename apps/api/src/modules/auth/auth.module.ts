import { Module, type OnApplicationBootstrap } from '@nestjs/common';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';

@Module({
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
