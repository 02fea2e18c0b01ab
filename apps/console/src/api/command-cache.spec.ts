import type { CommandWire } from '@dts/domain';
import { type InfiniteData, QueryClient } from '@tanstack/react-query';
import type { CommandPage } from '../lib/live-merge';
import { mergeCommandInLists } from './command-cache';
import { keys } from './keys';

const EUI = '70B3D57ED0000001';
const command = (uid: number, status: CommandWire['status']) => ({ uid, status, devEUI: EUI }) as CommandWire;
const read = (rows: CommandWire[]): InfiniteData<CommandPage> => ({ pages: [{ rows, next: undefined }], pageParams: [undefined] });
const rows = (client: QueryClient, show: 'all' | 'waiting') => client.getQueryData<InfiniteData<CommandPage>>(keys.commandList(EUI, show))?.pages[0]?.rows;

describe('the command lists in the query cache', () => {
  it('takes a command into every list of its device read so far, as each list shows it', () => {
    const client = new QueryClient();
    client.setQueryData(keys.commandList(EUI, 'all'), read([command(1, 'Sent')]));
    client.setQueryData(keys.commandList(EUI, 'waiting'), read([]));
    client.setQueryData(keys.commandList('70B3D57ED0000002', 'all'), read([]));
    mergeCommandInLists(client, command(2, 'Created'));
    expect(rows(client, 'all')).toEqual([command(2, 'Created'), command(1, 'Sent')]);
    expect(rows(client, 'waiting')).toEqual([command(2, 'Created')]);
    expect(client.getQueryData<InfiniteData<CommandPage>>(keys.commandList('70B3D57ED0000002', 'all'))?.pages[0]?.rows).toEqual([]);
    mergeCommandInLists(client, command(2, 'Sent'));
    expect(rows(client, 'all')).toEqual([command(2, 'Sent'), command(1, 'Sent')]);
    expect(rows(client, 'waiting')).toEqual([]);
  });

  it('does not bring a command back to a state it has left when a late answer says Created', () => {
    const client = new QueryClient();
    client.setQueryData(keys.commandList(EUI, 'waiting'), read([]));
    // The live feed's Sent before the POST's own answer.
    mergeCommandInLists(client, command(7, 'Sent'));
    mergeCommandInLists(client, command(7, 'Created'));
    expect(rows(client, 'waiting')).toEqual([]);
  });
});
