import { liveEchoOf, type LiveNotice, packLiveNotices, unpackLiveNotices } from './live-notices';

describe('live notices on the wire', () => {
  it('round-trips uplink, command, alert, image, credential and integration notices', () => {
    const notices: LiveNotice[] = [
      { kind: 'uplinks', device: 7, newest: '9007199254740993' },
      { kind: 'command', device: 7, command: 42 },
      { kind: 'alert', device: 7, alert: '12' },
      { kind: 'image', device: 7, image: 5 },
      { kind: 'credentials', account: 3 },
      { kind: 'integration', integration: 9 },
    ];
    const messages = packLiveNotices(notices);
    expect(messages).toHaveLength(1);
    expect(messages.flatMap(unpackLiveNotices)).toEqual(notices);
  });

  it('splits many notices into messages below the NOTIFY payload limit, losing none', () => {
    const notices: LiveNotice[] = Array.from({ length: 1_000 }, (_, i) => ({ kind: 'uplinks', device: 100_000 + i, newest: String(10_000_000_000 + i) }));
    const messages = packLiveNotices(notices);
    expect(messages.length).toBeGreaterThan(1);
    for (const m of messages) expect(Buffer.byteLength(m)).toBeLessThan(8_000);
    expect(messages.flatMap(unpackLiveNotices)).toEqual(notices);
  });

  it('drops what is not a notice', () => {
    expect(unpackLiveNotices('not json')).toEqual([]);
    expect(unpackLiveNotices('{"u":1}')).toEqual([]);
    expect(unpackLiveNotices('[["u",1,"12a"],["c",2,"x"],["x",1,1],["i",1,"5"],["c",3,4]]')).toEqual([{ kind: 'command', device: 3, command: 4 }]);
  });

  it('carries a publisher’s mark in its last message only, which listeners never see and old instances drop', () => {
    const notices: LiveNotice[] = Array.from({ length: 1_000 }, (_, i) => ({ kind: 'credentials', account: 100_000 + i }));
    const messages = packLiveNotices(notices, 'ab12');
    expect(messages.length).toBeGreaterThan(1);
    expect(messages.map(liveEchoOf)).toEqual([...messages.slice(1).map(() => null), 'ab12']);
    for (const m of messages) expect(Buffer.byteLength(m)).toBeLessThan(8_000);
    expect(messages.flatMap(unpackLiveNotices)).toEqual(notices);
    expect(liveEchoOf(packLiveNotices([{ kind: 'credentials', account: 1 }])[0]!)).toBeNull();
  });
});
