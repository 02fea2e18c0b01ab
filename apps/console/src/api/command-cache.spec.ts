import type { CommandWire } from '@dts/domain';
import { type InfiniteData, InfiniteQueryObserver, QueryClient } from '@tanstack/react-query';
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

  it('keeps a command event that came while the list was reading its next page (that read answers with the pages it started from)', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const reads: ((page: CommandPage) => void)[] = [];
    const observer = new InfiniteQueryObserver<CommandPage, Error, InfiniteData<CommandPage>, readonly unknown[], number | undefined>(client, {
      queryKey: keys.commandList(EUI, 'waiting'),
      queryFn: () => new Promise<CommandPage>((resolve) => reads.push(resolve)),
      initialPageParam: undefined,
      getNextPageParam: (last) => last.next,
    });
    const stop = observer.subscribe(() => undefined);
    const turns = async (check: () => boolean) => {
      for (let i = 0; i < 1_000 && !check(); i++) await new Promise((resolve) => setImmediate(resolve));
      expect(check()).toBe(true);
    };
    await turns(() => reads.length === 1);
    reads[0]!({ rows: [command(9, 'Scheduled'), command(8, 'Created')], next: 8 });
    await turns(() => rows(client, 'waiting')?.length === 2);
    void observer.fetchNextPage();
    await turns(() => reads.length === 2);
    // Sent while the next page is read: it leaves the waiting list ...
    mergeCommandInLists(client, command(9, 'Sent'));
    reads[1]!({ rows: [command(7, 'Created')], next: undefined });
    // ... and stays gone once that read is in.
    await turns(() => client.getQueryData<InfiniteData<CommandPage>>(keys.commandList(EUI, 'waiting'))?.pages.length === 2);
    expect(client.getQueryData<InfiniteData<CommandPage>>(keys.commandList(EUI, 'waiting'))!.pages.flatMap((p) => p.rows.map((r) => r.uid))).toEqual([8, 7]);
    stop();
    client.clear();
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
