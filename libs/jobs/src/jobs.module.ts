import { Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService } from '@nestjs/core';
import { ALL_JOB_NAMES, type JobName } from '@dts/domain';
import { AlertMailDigestProcessor } from './alerts/alert-mail-digest.processor';
import { AlertMailDigests } from './alerts/alert-mail-digests';
import { AlertMailProcessor } from './alerts/alert-mail.processor';
import { OfflineCheckProcessor } from './alerts/offline-check.processor';
import { CacheRebuildProcessor } from './cache/cache-rebuild.processor';
import { CommandDispatchProcessor } from './commands/command-dispatch.processor';
import { NetworkClient } from './commands/network-client';
import { CommandRequeueProcessor } from './commands/command-requeue.processor';
import { DevicePurgeProcessor } from './devices/device-purge.processor';
import { DeviceRedecodeProcessor } from './devices/device-redecode.processor';
import { ImagePurgeProcessor } from './images/image-purge.processor';
import { ImageReapProcessor } from './images/image-reap.processor';
import { ImageThumbnailProcessor } from './images/image-thumbnail.processor';
import { DeliveryDispatcher } from './integrations/delivery-dispatcher';
import { EventPump } from './integrations/event-pump';
import { EventRouter } from './integrations/event-router';
import { IntegrationsMaintenanceProcessor } from './integrations/integrations-maintenance.processor';
import { IntegrationSender } from './integrations/integration-sender';
import { MqttTransport } from './integrations/mqtt-transport';
import { WebhookTransport } from './integrations/webhook-transport';
import { JobProcessor } from './job-processor';
import { MailSendProcessor } from './mail/mail-send.processor';
import { EmailVerificationProcessor } from './mail/email-verification.processor';
import { MailTransport } from './mail/mail-transport';
import { PasswordResetProcessor } from './mail/password-reset.processor';
import { PurgeExpiredProcessor } from './maintenance/purge-expired.processor';
import { TimeseriesMaintenance } from './timeseries/timeseries-maintenance';
import { TimeseriesMaintenanceProcessor } from './timeseries/timeseries-maintenance.processor';

/** The job names of libs/domain that no processor handles. */
export function unhandledJobs(handled: Iterable<JobName>, all: readonly JobName[] = ALL_JOB_NAMES): JobName[] {
  const set = new Set(handled);
  return all.filter((name) => !set.has(name));
}

/** Every processor; a job name of libs/domain without one here stops the worker at start. */
const PROCESSORS = [
  MailSendProcessor,
  PurgeExpiredProcessor,
  DevicePurgeProcessor,
  DeviceRedecodeProcessor,
  CacheRebuildProcessor,
  CommandDispatchProcessor,
  CommandRequeueProcessor,
  ImageThumbnailProcessor,
  ImagePurgeProcessor,
  PasswordResetProcessor,
  ImageReapProcessor,
  OfflineCheckProcessor,
  AlertMailProcessor,
  AlertMailDigestProcessor,
  EmailVerificationProcessor,
  IntegrationsMaintenanceProcessor,
  TimeseriesMaintenanceProcessor,
];

/** Outbound events: the outbox router, the delivery dispatcher, their transports and what wakes them. */
const EVENT_FLOW = [EventRouter, DeliveryDispatcher, IntegrationSender, WebhookTransport, MqttTransport, EventPump];

/**
 * The queue processors. Expects configuration, persistence and queues from the importing root:
 * the standalone worker (WorkerModule) or the api when it runs the worker in process.
 */
@Module({
  imports: [DiscoveryModule],
  providers: [MailTransport, AlertMailDigests, TimeseriesMaintenance, NetworkClient, ...PROCESSORS, ...EVENT_FLOW],
  exports: [TimeseriesMaintenance],
})
export class JobsModule implements OnModuleInit, OnApplicationShutdown {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly mail: MailTransport,
  ) {}

  onModuleInit(): void {
    const handled = this.discovery
      .getProviders()
      .map((p) => p.instance as unknown)
      .filter((i): i is JobProcessor<JobName> => i instanceof JobProcessor)
      .map((p) => p.job);
    const missing = unhandledJobs(handled);
    if (missing.length > 0) throw new Error(`worker refuses to start: no processor for job(s) ${missing.join(', ')}`);
  }

  onApplicationShutdown(): void {
    this.mail.close();
  }
}
