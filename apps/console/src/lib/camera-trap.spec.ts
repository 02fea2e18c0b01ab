import { cameraOptions, isCameraTrap } from './camera-trap';

const datamodel = {
  device_types: [
    { uid: 1, type_name: 'Tracker' },
    { uid: 2, type_name: 'Camera' },
  ],
  decoders: [
    { uid: 1, name: 'raw', type_ref: null, lorawan_net_id: null, description: '', interface: 'builtin' },
    { uid: 3, name: 'DT GPS', type_ref: 1, lorawan_net_id: null, description: '', interface: 'builtin' },
    { uid: 5, name: 'DT Camera Trap', type_ref: 2, lorawan_net_id: null, description: '', interface: 'builtin' },
  ],
  icons: [
    { uid: 1, name: 'pin', label: 'Pin' },
    { uid: 4, name: 'camera', label: 'Camera' },
  ],
};
const plain = { type_ref: null, decoder_ref: 1, icon_ref: null };

describe('isCameraTrap', () => {
  it('knows a camera by its device type, its decoder’s device type or its icon', () => {
    expect(isCameraTrap({ ...plain, type_ref: 2 }, datamodel, false)).toBe(true);
    expect(isCameraTrap({ ...plain, decoder_ref: 5 }, datamodel, false)).toBe(true);
    expect(isCameraTrap({ ...plain, icon_ref: 4 }, datamodel, false)).toBe(true);
  });

  it('takes any device that sent photos for one', () => {
    expect(isCameraTrap(plain, undefined, true)).toBe(true);
  });

  it('does not take a tracker, a device without a type, or one whose references are unknown', () => {
    expect(isCameraTrap({ type_ref: 1, decoder_ref: 3, icon_ref: 1 }, datamodel, false)).toBe(false);
    expect(isCameraTrap(plain, datamodel, false)).toBe(false);
    expect(isCameraTrap({ type_ref: 99, decoder_ref: 99, icon_ref: 99 }, datamodel, false)).toBe(false);
    expect(isCameraTrap({ ...plain, type_ref: 2 }, undefined, false)).toBe(false);
  });
});

describe('cameraOptions', () => {
  const devices = [
    { devEUI: 'A1', label: 'Bike', type_ref: 1, decoder_ref: 3, icon_ref: 1 },
    { devEUI: 'C1', label: 'Trail camera', type_ref: 2, decoder_ref: 1, icon_ref: null },
    { devEUI: 'C2', label: '', type_ref: null, decoder_ref: 5, icon_ref: null },
    { devEUI: 'S1', label: 'Sensor', type_ref: null, decoder_ref: 1, icon_ref: null },
  ];

  it('offers the camera traps only, named by label and EUI', () => {
    expect(cameraOptions(devices, datamodel)).toEqual([
      { value: 'C1', label: 'Trail camera (C1)' },
      { value: 'C2', label: 'C2' },
    ]);
  });

  it('keeps a device already chosen, whatever it is, and offers none before the datamodel is known', () => {
    expect(cameraOptions(devices, datamodel, 'S1').map((o) => o.value)).toEqual(['C1', 'C2', 'S1']);
    expect(cameraOptions(devices, undefined)).toEqual([]);
  });
});
