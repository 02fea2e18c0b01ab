import { normalizeEui } from '@dts/domain';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { fieldError } from '../api/client';
import { DeviceRefFields } from '../components/DeviceRefFields';
import { TextField } from '../components/form';
import { ErrorBox } from '../components/ui';
import { useRegisterDevice } from '../hooks/devices';
import { useTranslation } from '../i18n';
import { parseTags } from '../lib/format';

/** Registers one device: EUI, label, type, decoder, network, icon, folder, tags (a modal dialog). */
export function RegisterDeviceDialog({ onClose, onRegistered }: { onClose: () => void; onRegistered: (eui: string) => void }) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  const register = useRegisterDevice();
  const [form, setForm] = useState({ eui: '', label: '', type: '', decoder: '', network: '', icon: '', folder: '', tags: '' });
  const [euiProblem, setEuiProblem] = useState<string>();
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  const set = (key: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => setForm({ ...form, [key]: e.target.value });
  const setRef = (key: 'type' | 'decoder' | 'network' | 'icon', value: string) => setForm({ ...form, [key]: value });
  const ref = (value: string) => (value ? Number(value) : undefined);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const eui = normalizeEui(form.eui);
    if (!eui) {
      setEuiProblem(t('devices.registerDialog.euiProblem'));
      return;
    }
    setEuiProblem(undefined);
    const tags = parseTags(form.tags);
    register.mutate(
      {
        eui,
        body: {
          ...(form.label ? { label: form.label } : {}),
          type_ref: ref(form.type),
          decoder_ref: ref(form.decoder),
          network_ref: ref(form.network),
          icon_ref: ref(form.icon),
          ...(form.folder ? { folder: form.folder } : {}),
          ...(tags ? { tags } : {}),
        },
      },
      { onSuccess: () => onRegistered(eui) },
    );
  };
  return (
    <dialog ref={dialog} className="dialog" aria-labelledby="register-title" onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <h2 id="register-title">{t('devices.registerDialog.title')}</h2>
        <TextField
          label={t('devices.registerDialog.eui')}
          hint={t('devices.registerDialog.euiHint')}
          required
          autoFocus
          value={form.eui}
          onChange={set('eui')}
          error={euiProblem ?? fieldError(register.error, 'eui')}
          className="mono"
        />
        <TextField label={t('devices.registerDialog.label')} value={form.label} onChange={set('label')} error={fieldError(register.error, 'label')} />
        <div className="grid-2">
          <DeviceRefFields
            value={form}
            onChange={(key, next) => setRef(key, next)}
            error={register.error}
            defaults={{ decoder: t('devices.registerDialog.decoderDefault'), network: t('devices.registerDialog.networkDefault') }}
          />
        </div>
        <TextField label={t('devices.registerDialog.folder')} value={form.folder} onChange={set('folder')} error={fieldError(register.error, 'folder')} />
        <TextField
          label={t('devices.registerDialog.tags')}
          hint={t('devices.registerDialog.tagsHint')}
          value={form.tags}
          onChange={set('tags')}
          error={fieldError(register.error, 'tags')}
        />
        <ErrorBox error={register.error} />
        <div className="dialog-actions">
          <button type="button" className="ghost" onClick={() => dialog.current?.close()}>
            {t('devices.registerDialog.cancel')}
          </button>
          <button type="submit" className="primary" disabled={register.isPending}>
            {t('devices.registerDialog.submit')}
          </button>
        </div>
      </form>
    </dialog>
  );
}
