import { Module, type OnApplicationBootstrap } from '@nestjs/common';
import { ThrottlingModule } from '../../common/throttling/throttling.module';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { OidcSignInService } from './oidc-sign-in.service';
import { OidcController } from './oidc.controller';

@Module({
  imports: [ThrottlingModule],
  controllers: [AuthController, OidcController],
  providers: [AuthService, OidcSignInService],
  exports: [AuthService],
})
export class AuthModule implements OnApplicationBootstrap {
  constructor(private readonly auth: AuthService) {}

  onApplicationBootstrap(): Promise<void> {
    return this.auth.ensureAdmin();
  }
}
