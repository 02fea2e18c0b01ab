import { Global, Module } from '@nestjs/common';
import { CodecPool } from './codec-pool';
import { DecodingService } from './decoding.service';

/** Decoding for the api and the worker: built-in decoders in place, vendor codecs on the codec threads. */
@Global()
@Module({
  providers: [CodecPool, DecodingService],
  exports: [CodecPool, DecodingService],
})
export class CodecsModule {}
