import type { AlertWire } from '@dts/domain';
import { InfiniteQueryObserver, QueryClient } from '@tanstack/react-query';
import type { AlertPage } from '../lib/alert-merge';
import { applyAlert } from './alert-cache';
import { keys } from './keys';

const alert = (uid: number, over: Partial<AlertWire> = {}): AlertWire => ({
  uid,
  rule: { uid: 1, name: 'Too warm', kind: 'threshold' },
  devEUI: '0004A30B001C0530',
  state: 'active',
  acknowledged: false,
  message: 'temperature 31 above 30',
  details: {},
  raised_unix: 1_000 + uid,
  cleared_unix: null,
  acknowledged_unix: null,
  mail: null,
  ...over,
});

async function until(check: () => boolean): Promise<void> {
  for (let turn = 0; turn < 1_000 && !check(); turn++) await new Promise((resolve) => setImmediate(resolve));
  if (!check()) throw new Error('the state never came');
}

/** An alert list on screen (an observer, as the page's hook is) whose reads the test answers. */
function list(client: QueryClient, q: { state?: 'active' }) {
  const reads: ((page: AlertPage) => void)[] = [];
  const observer = new InfiniteQueryObserver<AlertPage, Error, { pages: AlertPage[] }, readonly unknown[], number | undefined>(client, {
    queryKey: keys.alertList(q),
    queryFn: () => new Promise<AlertPage>((resolve) => reads.push(resolve)),
    initialPageParam: undefined,
    getNextPageParam: (last) => last.next,
  });
  const stop = observer.subscribe(() => undefined);
  const shown = () => observer.getCurrentResult().data?.pages.flatMap((p) => p.rows.map((a) => `${a.uid}:${a.state}`));
  return { reads, shown, stop };
}

describe('alert events and the lists on screen', () => {
  it('puts a raised alert in the active list and every list, and takes a cleared one out of the active list only', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const active = list(client, { state: 'active' });
    const all = list(client, {});
    await until(() => active.reads.length === 1 && all.reads.length === 1);
    active.reads[0]!({ rows: [alert(1)], next: undefined });
    all.reads[0]!({ rows: [alert(1)], next: undefined });
    await until(() => active.shown()?.length === 1 && all.shown()?.length === 1);

    applyAlert(client, alert(2));
    expect(active.shown()).toEqual(['2:active', '1:active']);
    applyAlert(client, alert(1, { state: 'cleared', cleared_unix: 2_000 }));
    expect(active.shown()).toEqual(['2:active']);
    expect(all.shown()).toEqual(['2:active', '1:cleared']);
    active.stop();
    all.stop();
    client.clear();
  });

  it('keeps an alert raised while the list was being read: the read answers as of before it', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const active = list(client, { state: 'active' });
    await until(() => active.reads.length === 1);
    applyAlert(client, alert(5));
    active.reads[0]!({ rows: [alert(3)], next: undefined });
    await until(() => active.shown()?.length === 2);
    expect(active.shown()).toEqual(['5:active', '3:active']);
    active.stop();
    client.clear();
  });
});
