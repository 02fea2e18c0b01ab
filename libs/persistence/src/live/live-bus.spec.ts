import { type LiveNotice, packLiveNotices, unpackLiveNotices } from './live-bus';

describe('live notices on the wire', () => {
  it('round-trips uplink and command notices', () => {
    const notices: LiveNotice[] = [
      { kind: 'uplinks', device: 7, newest: '9007199254740993' },
      { kind: 'command', device: 7, command: 42 },
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
    expect(unpackLiveNotices('[["u",1,"12a"],["c",2,"x"],["x",1,1],["c",3,4]]')).toEqual([{ kind: 'command', device: 3, command: 4 }]);
  });
});
