import { fieldError } from '../api/client';
import { useDatamodel } from '../hooks/datamodel';
import { SelectField } from './form';

export interface DeviceRefs {
  type: string;
  decoder: string;
  network: string;
  icon: string;
}

/** The references of a device chosen from the datamodel: type, decoder, network and icon (register and settings). */
export function DeviceRefFields({
  value,
  onChange,
  error,
  defaults = {},
}: {
  value: DeviceRefs;
  onChange: (key: keyof DeviceRefs, next: string) => void;
  /** The failed call whose field errors are shown next to the selects. */
  error: unknown;
  /** What "no choice" means, per select ("None" unless given). */
  defaults?: Partial<Record<keyof DeviceRefs, string>>;
}) {
  const datamodel = useDatamodel().data;
  const options = <T extends { uid: number }>(list: readonly T[] | undefined, label: (x: T) => string) =>
    (list ?? []).map((x) => ({ value: x.uid, label: label(x) }));
  const fields: [keyof DeviceRefs, string, string, { value: number; label: string }[]][] = [
    ['type', 'Type', 'type_ref', options(datamodel?.device_types, (t) => t.type_name)],
    ['decoder', 'Decoder', 'decoder_ref', options(datamodel?.decoders, (d) => d.name)],
    ['network', 'Network', 'network_ref', options(datamodel?.networks, (n) => n.name)],
    ['icon', 'Icon', 'icon_ref', options(datamodel?.icons, (i) => i.label)],
  ];
  return (
    <>
      {fields.map(([key, label, field, list]) => (
        <SelectField
          key={key}
          label={label}
          empty={defaults[key] ?? 'None'}
          value={value[key]}
          onChange={(e) => onChange(key, e.target.value)}
          options={list}
          error={fieldError(error, field)}
          hint={key === 'decoder' && defaults.decoder === undefined ? 'Changing it decodes the stored uplinks again.' : undefined}
        />
      ))}
    </>
  );
}
