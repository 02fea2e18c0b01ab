import { Global, Module } from '@nestjs/common';
import { LiveStreamsService } from './live-streams.service';

/** The one admission path of every long response (live feeds, exports): caps, revocation, stalls. */
@Global()
@Module({ providers: [LiveStreamsService], exports: [LiveStreamsService] })
export class StreamsModule {}
