import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { JobsModule } from '@dts/jobs';
import type { DatabaseEndpoint } from '@dts/persistence';
import type { AppConfig } from '@dts/platform';
import { AuthGuard } from './common/auth/auth.guard';
import { ApiExceptionFilter } from './common/http/api-exception.filter';
import { ApiValidationPipe } from './common/http/validation.pipe';
import { ApiThrottlerGuard } from './common/throttling/api-throttler.guard';
import { OriginGuard } from './common/http/origin.guard';
import { infrastructure } from './infrastructure';
import { AuthModule } from './modules/auth/auth.module';
import { CacheModule } from './modules/cache/cache.module';
import { CodecsApiModule } from './modules/codecs/codecs.module';
import { CommandsModule } from './modules/commands/commands.module';
import { ImagesModule } from './modules/images/images.module';
import { NetworksModule } from './modules/networks/networks.module';
import { DatamodelModule } from './modules/datamodel/datamodel.module';
import { DemoModule } from './modules/demo/demo.module';
import { DevicesModule } from './modules/devices/devices.module';
import { DashboardsModule } from './modules/dashboards/dashboards.module';
import { FencesModule } from './modules/fences/fences.module';
import { GatewaysModule } from './modules/gateways/gateways.module';
import { FeedbackModule } from './modules/feedback/feedback.module';
import { HealthModule } from './modules/health/health.module';
import { IngestModule } from './modules/ingest/ingest.module';
import { MetricsApiModule } from './modules/metrics/metrics.module';
import { AdminModule } from './modules/admin/admin.module';
import { AuditModule } from './modules/audit/audit.module';
import { OrganisationsModule } from './modules/organisations/organisations.module';
import { AlertsModule } from './modules/alerts/alerts.module';
import { IntegrationsModule } from './modules/integrations/integrations.module';
import { RulesModule } from './modules/rules/rules.module';
import { SessionsModule } from './modules/sessions/sessions.module';
import { SystemModule } from './modules/system/system.module';
import { TokensModule } from './modules/tokens/tokens.module';
import { UplinksModule } from './modules/uplinks/uplinks.module';
import { LiveModule } from './modules/live/live.module';
import { StreamsModule } from './modules/live/streams.module';
import { UserModule } from './modules/user/user.module';
import { ConsoleModule } from './modules/console/console.module';
import { OverviewModule } from './modules/overview/overview.module';
import { SeriesModule } from './modules/series/series.module';

/** The global guards, in the order they run: who is calling, where from, then how often they may. */
export const GLOBAL_GUARDS = [AuthGuard, OriginGuard, ApiThrottlerGuard] as const;

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, database: DatabaseEndpoint): DynamicModule {
    const base = infrastructure(config, database);
    return {
      module: AppModule,
      imports: [
        ...base.imports,
        AuthModule,
        UserModule,
        TokensModule,
        SessionsModule,
        DevicesModule,
        DatamodelModule,
        FencesModule,
        DashboardsModule,
        GatewaysModule,
        IngestModule,
        UplinksModule,
        StreamsModule,
        LiveModule,
        SeriesModule,
        OverviewModule,
        ConsoleModule,
        CacheModule,
        CodecsApiModule,
        CommandsModule,
        NetworksModule,
        ImagesModule,
        IntegrationsModule,
        RulesModule,
        AlertsModule,
        SystemModule,
        FeedbackModule,
        HealthModule,
        MetricsApiModule,
        AdminModule,
        AuditModule,
        OrganisationsModule,
        DemoModule,
        // In embedded mode (or WORKER_IN_PROCESS=true) the processors share this process and its pools.
        ...(config.worker.inProcess ? [JobsModule] : []),
      ],
      providers: [
        ...base.providers,
        OriginGuard,
        ApiExceptionFilter,
        ...GLOBAL_GUARDS.map((guard) => ({ provide: APP_GUARD, useExisting: guard })),
        { provide: APP_FILTER, useExisting: ApiExceptionFilter },
        { provide: APP_PIPE, useClass: ApiValidationPipe },
      ],
    };
  }
}
