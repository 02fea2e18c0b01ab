import { JSON_MAX_DEPTH, JSON_MAX_MEMBERS } from '@dts/domain';
import { findRefusedMember } from './refused-member';

const never = () => false;
const wide = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`m${i}`, i]));

describe('findRefusedMember', () => {
  it('accepts an object of exactly the member limit, refuses one more, at any depth', () => {
    expect(findRefusedMember(wide(JSON_MAX_MEMBERS), never)).toBeNull();
    expect(findRefusedMember(wide(JSON_MAX_MEMBERS + 1), never)).toEqual({ path: '', reason: 'wide' });
    expect(findRefusedMember({ a: { b: wide(JSON_MAX_MEMBERS + 1) } }, never)).toEqual({ path: 'a.b', reason: 'wide' });
  });

  it('does not count array elements as members (a batch of 1,000 uplinks is not wide)', () => {
    expect(
      findRefusedMember(
        Array.from({ length: 1_000 }, () => ({ devEUI: 'x', port: 1 })),
        never,
      ),
    ).toBeNull();
  });

  it('finds refused names, NUL characters and depth as before', () => {
    expect(findRefusedMember({ a: { bad: 1 } }, (k) => k === 'bad')).toEqual({ path: 'a.bad', reason: 'name' });
    expect(findRefusedMember({ a: 'x\u0000' }, never)).toEqual({ path: 'a', reason: 'nul' });
    let deep: unknown = 1;
    for (let i = 0; i < JSON_MAX_DEPTH + 1; i++) deep = { d: deep };
    expect(findRefusedMember(deep, never)?.reason).toBe('depth');
  });
});
