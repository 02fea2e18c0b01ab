import type { CommandWire } from '@dts/domain';
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { type CommandShow, mergeCommandPages } from '../lib/live-merge';
import { keys } from './keys';

/** A command as it is now (a POST's answer, a live event) into every list of its device read so far. */
export function mergeCommandInLists(client: QueryClient, command: CommandWire): void {
  for (const [key, data] of client.getQueriesData<InfiniteData<CommandWire[]>>({ queryKey: keys.commandLists(command.devEUI) })) {
    const show: CommandShow = key.at(-1) === 'waiting' ? 'waiting' : 'all';
    client.setQueryData(key, mergeCommandPages(data, command, show));
  }
}
