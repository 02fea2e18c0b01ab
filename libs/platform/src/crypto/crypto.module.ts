import { Global, Module } from '@nestjs/common';
import { TokenCryptoService } from './token-crypto.service';

/** Secret generation, digests and the AES-256-GCM cipher, for the api and the worker. */
@Global()
@Module({ providers: [TokenCryptoService], exports: [TokenCryptoService] })
export class CryptoModule {}
