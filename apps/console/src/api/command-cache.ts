import { COMMAND_STATUS_RANK, type CommandWire } from '@dts/domain';
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { type CommandPage, type CommandShow, mergeCommandPages } from '../lib/live-merge';
import { keys } from './keys';
import { writeThrough } from './write-through';

/** Commands whose latest state this console has heard of, the last ones only. */
const REMEMBERED = 1_000;
const heard = new WeakMap<QueryClient, Map<number, CommandWire>>();

/**
 * The command as far as it has been heard of: a POST's answer (Created) can arrive after the live
 * feed's Scheduled or Sent, and must not bring back a state it has left.
 */
function latest(client: QueryClient, command: CommandWire): CommandWire {
  let known = heard.get(client);
  if (!known) heard.set(client, (known = new Map()));
  const before = known.get(command.uid);
  const now = before && COMMAND_STATUS_RANK[before.status] > COMMAND_STATUS_RANK[command.status] ? before : command;
  known.delete(command.uid);
  known.set(command.uid, now);
  if (known.size > REMEMBERED) known.delete(known.keys().next().value!);
  return now;
}

/** A command as it is now (a POST's answer, a live event) into every list of its device read so far. */
export function mergeCommandInLists(client: QueryClient, command: CommandWire): void {
  const now = latest(client, command);
  writeThrough(client, { queryKey: keys.commandLists(command.devEUI) }, (query) => {
    const show: CommandShow = query.queryKey.at(-1) === 'waiting' ? 'waiting' : 'all';
    // Once more after a read in flight, as far as heard by then: a later event may have moved it on.
    client.setQueryData<InfiniteData<CommandPage>>(query.queryKey, (data) => (data ? mergeCommandPages(data, latest(client, now), show) : data));
  });
}
