import type { DeviceMetaUpdateRequest, DeviceMetaWire } from '@dts/domain';
import { type FormEvent, useState } from 'react';
import { useLocation } from 'wouter';
import { fieldError } from '../../api/client';
import { DeviceRefFields } from '../../components/DeviceRefFields';
import { TextField } from '../../components/form';
import { Card, ErrorBox } from '../../components/ui';
import { useDeleteDevice, useShareDevice, useUpdateDevice } from '../../hooks/devices';
import { parseTags, tagsText } from '../../lib/format';
import { RetentionCard } from './RetentionCard';
import { useTranslation } from '../../i18n';

const text = (n: number | null) => (n === null ? '' : String(n));
const ref = (value: string) => (value === '' ? null : Number(value));
/** An optional coordinate: empty clears it; anything else must be a number (the service checks the range). */
const coordinate = (value: string) => (value.trim() === '' ? null : Number(value));

/** The device's metadata, editable; sharing; removal. */
export function SettingsTab({ device }: { device: DeviceMetaWire }) {
  const { t } = useTranslation();
  const update = useUpdateDevice(device.devEUI);
  const share = useShareDevice(device.devEUI);
  const remove = useDeleteDevice();
  const [, navigate] = useLocation();
  const [form, setForm] = useState({
    label: device.label,
    folder: device.folder ?? '',
    tags: tagsText(device.tags),
    type: text(device.type_ref),
    decoder: text(device.decoder_ref),
    network: text(device.network_ref),
    icon: text(device.icon_ref),
    lat: text(device.installation_lat),
    lon: text(device.installation_lon),
  });
  const [username, setUsername] = useState('');
  const [saved, setSaved] = useState(false);
  const set = (key: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
    setSaved(false);
    setForm({ ...form, [key]: e.target.value });
  };
  const setRef = (key: 'type' | 'decoder' | 'network' | 'icon', value: string) => {
    setSaved(false);
    setForm({ ...form, [key]: value });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: DeviceMetaUpdateRequest = {
      label: form.label,
      folder: form.folder || null,
      tags: parseTags(form.tags),
      type_ref: ref(form.type),
      decoder_ref: ref(form.decoder),
      network_ref: ref(form.network),
      icon_ref: ref(form.icon),
      installation_lat: coordinate(form.lat),
      installation_lon: coordinate(form.lon),
    };
    update.mutate(body, { onSuccess: () => setSaved(true) });
  };
  const e = (field: string) => fieldError(update.error, field);
  return (
    <div className="device-grid">
      <Card title={t('device.settings.title')} id="settings">
        <form onSubmit={submit} noValidate>
          <TextField label={t('device.settings.label')} value={form.label} onChange={set('label')} error={e('label')} />
          <div className="grid-2">
            <TextField label={t('device.settings.folder')} value={form.folder} onChange={set('folder')} error={e('folder')} />
            <TextField label={t('device.settings.tags')} hint={t('device.settings.tagsHint')} value={form.tags} onChange={set('tags')} error={e('tags')} />
            <DeviceRefFields value={form} onChange={(key, next) => setRef(key, next)} error={update.error} />
            <TextField
              label={t('device.settings.lat')}
              inputMode="decimal"
              value={form.lat}
              onChange={set('lat')}
              error={e('installation_lat')}
              hint={t('device.settings.latHint')}
            />
            <TextField
              label={t('device.settings.lon')}
              inputMode="decimal"
              value={form.lon}
              onChange={set('lon')}
              error={e('installation_lon')}
              hint={t('device.settings.lonHint')}
            />
          </div>
          <ErrorBox error={update.error} />
          {saved ? (
            <p className="notice" role="status">
              {t('device.settings.saved')}
            </p>
          ) : null}
          <button type="submit" className="primary" disabled={update.isPending}>
            {t('device.settings.save')}
          </button>
        </form>
      </Card>
      <RetentionCard device={device} />
      <Card title={t('device.settings.share')} id="share">
        <form
          onSubmit={(ev) => {
            ev.preventDefault();
            share.mutate(username, { onSuccess: () => setUsername('') });
          }}
          noValidate
        >
          <TextField
            label={t('device.settings.shareWith')}
            value={username}
            onChange={(ev) => setUsername(ev.target.value)}
            error={fieldError(share.error, 'username')}
          />
          <ErrorBox error={share.error} />
          {share.isSuccess ? (
            <p className="notice" role="status">
              {t('device.settings.shared', { username: share.data.username })}
            </p>
          ) : null}
          <button type="submit" disabled={share.isPending || !username}>
            {t('device.settings.shareSubmit')}
          </button>
        </form>
      </Card>
      <Card title={t('device.settings.remove')} id="remove">
        <p>{t('device.settings.removeText')}</p>
        <ErrorBox error={remove.error} />
        <button
          type="button"
          className="danger"
          disabled={remove.isPending}
          onClick={() => {
            if (window.confirm(t('device.settings.confirmRemove', { name: device.label || device.devEUI })))
              remove.mutate(device.devEUI, { onSuccess: () => navigate('/devices') });
          }}
        >
          {t('device.settings.removeSubmit')}
        </button>
      </Card>
    </div>
  );
}
