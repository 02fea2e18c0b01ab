import { Module } from '@nestjs/common';
import { IntegrationSender, MqttTransport, WebhookTransport } from '@dts/jobs';
import { IntegrationsController } from './integrations.controller';
import { IntegrationsService } from './integrations.service';

// The sender and its transports are the worker's own (libs/jobs): a test send goes as a delivery does.
@Module({ controllers: [IntegrationsController], providers: [IntegrationsService, IntegrationSender, WebhookTransport, MqttTransport] })
export class IntegrationsModule {}
