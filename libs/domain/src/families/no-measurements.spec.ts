import { DECODER_COLUMNS, type Measurements } from '../wire';
import { NO_MEASUREMENTS } from './decoder';

describe('NO_MEASUREMENTS', () => {
  it('are the columns a decoder fills', () => {
    const names: (keyof Measurements)[] = DECODER_COLUMNS;
    expect(Object.keys(NO_MEASUREMENTS).sort()).toEqual([...names].sort());
  });
});
