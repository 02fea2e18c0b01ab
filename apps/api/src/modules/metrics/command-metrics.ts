import { Injectable, type OnModuleInit } from '@nestjs/common';
import { COMMAND_STATUSES } from '@dts/domain';
import { CommandsRepository } from '@dts/persistence';
import { MetricsService } from '@dts/platform';

/** Commands per status across the deployment, one grouped query per scrape; absent statuses read 0. */
@Injectable()
export class CommandMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: MetricsService,
    private readonly commands: CommandsRepository,
  ) {}

  onModuleInit(): void {
    this.metrics.scrapeGauge({
      name: 'dts_commands',
      help: 'Downlink commands by status (whole database)',
      labelNames: ['status'],
      scope: 'cluster',
      read: async () => {
        const counts = await this.commands.statusCounts();
        return COMMAND_STATUSES.map((status) => [{ status }, counts[status] ?? 0]);
      },
    });
  }
}
