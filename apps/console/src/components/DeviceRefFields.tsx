import { fieldError } from '../api/client';
import { useDatamodel } from '../hooks/datamodel';
import { useTranslation } from '../i18n';
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
  /** What "no choice" means, per select ("None" unless given), in the console's language. */
  defaults?: Partial<Record<keyof DeviceRefs, string>>;
}) {
  const { t } = useTranslation();
  const datamodel = useDatamodel().data;
  const options = <T extends { uid: number }>(list: readonly T[] | undefined, label: (x: T) => string) =>
    (list ?? []).map((x) => ({ value: x.uid, label: label(x) }));
  const fields: [keyof DeviceRefs, string, string, { value: number; label: string }[]][] = [
    ['type', t('common.deviceRefs.type'), 'type_ref', options(datamodel?.device_types, (d) => d.type_name)],
    ['decoder', t('common.deviceRefs.decoder'), 'decoder_ref', options(datamodel?.decoders, (d) => d.name)],
    ['network', t('common.deviceRefs.network'), 'network_ref', options(datamodel?.networks, (n) => n.name)],
    ['icon', t('common.deviceRefs.icon'), 'icon_ref', options(datamodel?.icons, (i) => i.label)],
  ];
  return (
    <>
      {fields.map(([key, label, field, list]) => (
        <SelectField
          key={key}
          label={label}
          empty={defaults[key] ?? t('common.deviceRefs.none')}
          value={value[key]}
          onChange={(e) => onChange(key, e.target.value)}
          options={list}
          error={fieldError(error, field)}
          hint={key === 'decoder' && defaults.decoder === undefined ? t('common.deviceRefs.decoderHint') : undefined}
        />
      ))}
    </>
  );
}
