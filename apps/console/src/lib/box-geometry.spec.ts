import { type Box, boxBetween, boxPercent, clampBox, dragBox, FINE_NUDGE, MIN_SIZE, NUDGE, nudgeBox, pointIn, sameBox } from './box-geometry';

const close = (box: Box) => box.map((v) => expect.closeTo(v, 6));

describe('boxes in normalised coordinates', () => {
  it('clamps a box into the image, keeping at least MIN_SIZE on each side', () => {
    expect(clampBox([0.2, 0.3, 0.4, 0.5])).toEqual([0.2, 0.3, 0.4, 0.5]);
    expect(clampBox([-0.1, 0.5, 0.3, 0.8])).toEqual(close([0, 0.5, 0.2, 0.5]));
    expect(clampBox([0.9, 0.9, 0.5, 0.5])).toEqual(close([0.9, 0.9, 0.1, 0.1]));
    // Nothing left inside: grown back into the image from the edge it fell off.
    expect(clampBox([1.2, 0.5, 0.1, 0])).toEqual(close([1 - MIN_SIZE, 0.5, MIN_SIZE, MIN_SIZE]));
    expect(clampBox([Number.NaN, 0, Number.POSITIVE_INFINITY, 0.5])).toEqual(close([0, 0, MIN_SIZE, 0.5]));
    // Rounded to a millionth: no floating-point noise stored.
    expect(clampBox([0.1 + 0.2, 0, 0.1, 0.1])[0]).toBe(0.3);
  });

  it('finds the point of the image under the pointer, clamped to it', () => {
    const rect = { left: 100, top: 50, width: 400, height: 300 };
    expect(pointIn(rect, 300, 200)).toEqual({ x: 0.5, y: 0.5 });
    expect(pointIn(rect, 50, 400)).toEqual({ x: 0, y: 1 });
    expect(pointIn({ ...rect, width: 0 }, 300, 200)).toEqual({ x: 0, y: 0 });
  });

  it('spans a box between two points whichever way the pointer went; a click draws nothing', () => {
    expect(boxBetween({ x: 0.6, y: 0.7 }, { x: 0.2, y: 0.1 })).toEqual(close([0.2, 0.1, 0.4, 0.6]));
    expect(boxBetween({ x: 0.2, y: 0.1 }, { x: 0.6, y: 0.7 })).toEqual(close([0.2, 0.1, 0.4, 0.6]));
    expect(boxBetween({ x: 0.5, y: 0.5 }, { x: 0.502, y: 0.8 })).toBeNull();
  });

  describe('dragging', () => {
    const box: Box = [0.2, 0.2, 0.4, 0.3];
    it('moves a box whole, stopping at the edges with its size kept', () => {
      expect(dragBox(box, 'move', 0.1, -0.1)).toEqual(close([0.3, 0.1, 0.4, 0.3]));
      expect(dragBox(box, 'move', 0.9, 0.9)).toEqual(close([0.6, 0.7, 0.4, 0.3]));
      expect(dragBox(box, 'move', -1, -1)).toEqual(close([0, 0, 0.4, 0.3]));
    });
    it('moves the edges a handle holds, inside the image, never past the opposite edge', () => {
      expect(dragBox(box, 'se', 0.1, 0.1)).toEqual(close([0.2, 0.2, 0.5, 0.4]));
      expect(dragBox(box, 'nw', 0.1, 0.1)).toEqual(close([0.3, 0.3, 0.3, 0.2]));
      expect(dragBox(box, 'e', 1, 1)).toEqual(close([0.2, 0.2, 0.8, 0.3]));
      expect(dragBox(box, 'n', 0, -1)).toEqual(close([0.2, 0, 0.4, 0.5]));
      expect(dragBox(box, 'w', 0.9, 0)).toEqual(close([0.6 - MIN_SIZE, 0.2, MIN_SIZE, 0.3]));
      expect(dragBox(box, 's', 0, -0.9)).toEqual(close([0.2, 0.2, 0.4, MIN_SIZE]));
    });
  });

  it('nudges with the arrow keys: a step moves, Shift resizes from the bottom right, Ctrl takes the fine step', () => {
    const box: Box = [0.5, 0.5, 0.2, 0.2];
    expect(nudgeBox(box, 'ArrowLeft')).toEqual(close([0.5 - NUDGE, 0.5, 0.2, 0.2]));
    expect(nudgeBox(box, 'ArrowDown', { fine: true })).toEqual(close([0.5, 0.5 + FINE_NUDGE, 0.2, 0.2]));
    expect(nudgeBox(box, 'ArrowRight', { resize: true })).toEqual(close([0.5, 0.5, 0.2 + NUDGE, 0.2]));
    expect(nudgeBox(box, 'ArrowUp', { resize: true })).toEqual(close([0.5, 0.5, 0.2, 0.2 - NUDGE]));
    expect(nudgeBox([0, 0, 0.2, 0.2], 'ArrowLeft')).toEqual([0, 0, 0.2, 0.2]);
  });

  it('tells boxes the same to a millionth, and places one in CSS percentages', () => {
    expect(sameBox([0.1, 0.2, 0.3, 0.4], [0.1000001, 0.2, 0.3, 0.4])).toBe(true);
    expect(sameBox([0.1, 0.2, 0.3, 0.4], [0.11, 0.2, 0.3, 0.4])).toBe(false);
    expect(boxPercent([0.1, 0.25, 0.5, 0.125])).toEqual({ left: '10.000%', top: '25.000%', width: '50.000%', height: '12.500%' });
  });
});
