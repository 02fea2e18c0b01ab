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

const text = (n: number | null) => (n === null ? '' : String(n));
const ref = (value: string) => (value === '' ? null : Number(value));
/** An optional coordinate: empty clears it; anything else must be a number (the service checks the range). */
const coordinate = (value: string) => (value.trim() === '' ? null : Number(value));

/** The device's metadata, editable; sharing; removal. */
export function SettingsTab({ device }: { device: DeviceMetaWire }) {
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
      <Card title="Settings" id="settings">
        <form onSubmit={submit} noValidate>
          <TextField label="Label" value={form.label} onChange={set('label')} error={e('label')} />
          <div className="grid-2">
            <TextField label="Folder" value={form.folder} onChange={set('folder')} error={e('folder')} />
            <TextField label="Tags" hint="Separated by commas" value={form.tags} onChange={set('tags')} error={e('tags')} />
            <DeviceRefFields value={form} onChange={(key, next) => setRef(key, next)} error={update.error} />
            <TextField
              label="Installation latitude"
              inputMode="decimal"
              value={form.lat}
              onChange={set('lat')}
              error={e('installation_lat')}
              hint="−90 to 90"
            />
            <TextField
              label="Installation longitude"
              inputMode="decimal"
              value={form.lon}
              onChange={set('lon')}
              error={e('installation_lon')}
              hint="−180 to 180"
            />
          </div>
          <ErrorBox error={update.error} />
          {saved ? (
            <p className="notice" role="status">
              Saved.
            </p>
          ) : null}
          <button type="submit" className="primary" disabled={update.isPending}>
            Save
          </button>
        </form>
      </Card>
      <RetentionCard device={device} />
      <Card title="Share" id="share">
        <form
          onSubmit={(ev) => {
            ev.preventDefault();
            share.mutate(username, { onSuccess: () => setUsername('') });
          }}
          noValidate
        >
          <TextField
            label="Username to share with"
            value={username}
            onChange={(ev) => setUsername(ev.target.value)}
            error={fieldError(share.error, 'username')}
          />
          <ErrorBox error={share.error} />
          {share.isSuccess ? (
            <p className="notice" role="status">
              Shared with {share.data.username}.
            </p>
          ) : null}
          <button type="submit" disabled={share.isPending || !username}>
            Share
          </button>
        </form>
      </Card>
      <Card title="Remove" id="remove">
        <p>Removing deletes the device with its uplinks, commands and images when you own it; a device shared with you is only dropped from your account.</p>
        <ErrorBox error={remove.error} />
        <button
          type="button"
          className="danger"
          disabled={remove.isPending}
          onClick={() => {
            if (window.confirm(`Remove ${device.label || device.devEUI}?`)) remove.mutate(device.devEUI, { onSuccess: () => navigate('/devices') });
          }}
        >
          Remove this device
        </button>
      </Card>
    </div>
  );
}
