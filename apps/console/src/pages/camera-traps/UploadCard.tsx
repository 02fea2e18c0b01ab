import { useEffect, useState } from 'react';
import { DropZone } from '../../components/DropZone';
import { SelectField } from '../../components/form';
import { Card } from '../../components/ui';
import { useUploads } from '../../hooks/images';
import { useTranslation } from '../../i18n';
import { megabytes, percent } from '../../lib/upload';

/** Photos to one camera: dropped or chosen, sent one after another, each with its progress and, when refused, why. */
export function UploadCard({ cameras, camera }: { cameras: { value: string; label: string }[]; camera: string }) {
  const { t } = useTranslation();
  const [target, setTarget] = useState(camera);
  useEffect(() => setTarget((current) => camera || current), [camera]);
  const uploads = useUploads();
  const chosen = target || (cameras.length === 1 ? cameras[0]!.value : '');
  const finished = uploads.items.filter((i) => i.state !== 'waiting' && i.state !== 'sending').length;
  return (
    <Card title={t('cameraTraps.upload.title')} id="upload">
      <div className="upload-grid">
        <SelectField
          label={t('cameraTraps.upload.target')}
          empty={cameras.length ? t('cameraTraps.upload.choose') : t('cameraTraps.upload.registerFirst')}
          value={chosen}
          options={cameras}
          onChange={(e) => setTarget(e.target.value)}
        />
        <DropZone onFiles={(files) => uploads.add(chosen, files)} disabled={!chosen} hint={t('cameraTraps.upload.hint')} />
      </div>
      {uploads.items.length > 0 ? (
        <>
          <ul className="uploads" aria-label={t('cameraTraps.upload.list')}>
            {uploads.items.map((item) => (
              <li key={item.id} data-upload-state={item.state} className={item.state === 'refused' ? 'refused' : undefined}>
                <span className="upload-name">{item.name}</span>
                <span className="muted small">{megabytes(item.size)}</span>
                <progress
                  max={100}
                  value={percent(item)}
                  aria-label={t('cameraTraps.upload.progress', { name: item.name, state: t(`cameraTraps.upload.state.${item.state}`) })}
                />
                <span className="upload-state">{t(`cameraTraps.upload.state.${item.state}`)}</span>
                {item.problem ? (
                  <span className="field-error" role="alert">
                    {item.problem}
                  </span>
                ) : null}
              </li>
            ))}
          </ul>
          {finished > 0 ? (
            <button type="button" className="ghost small" onClick={uploads.clear}>
              {t('cameraTraps.upload.clear')}
            </button>
          ) : null}
        </>
      ) : null}
    </Card>
  );
}
