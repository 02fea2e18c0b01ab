import { Global, Module } from '@nestjs/common';
import { newQuickJSWASMModule } from 'quickjs-emscripten';
import { CodecSandbox } from './codec-sandbox';
import { DecodingService } from './decoding.service';

/** Decoding for the api and the worker: built-in decoders and sandboxed vendor codecs. */
@Global()
@Module({
  providers: [{ provide: CodecSandbox, useFactory: async () => new CodecSandbox(await newQuickJSWASMModule(), () => newQuickJSWASMModule()) }, DecodingService],
  exports: [CodecSandbox, DecodingService],
})
export class CodecsModule {}
