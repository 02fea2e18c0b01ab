import { useEffect, useState } from 'react';
import { DropZone } from '../../components/DropZone';
import { SelectField } from '../../components/form';
import { Card } from '../../components/ui';
import { useUploads } from '../../hooks/images';
import { megabytes, percent, type UploadItem } from '../../lib/upload';

const STATE_TEXT: Record<UploadItem['state'], string> = {
  waiting: 'Waiting',
  sending: 'Sending',
  done: 'Uploaded',
  same: 'Already there (the same photo)',
  refused: 'Refused',
};

/** Photos to one camera: dropped or chosen, sent one after another, each with its progress and, when refused, why. */
export function UploadCard({ cameras, camera }: { cameras: { value: string; label: string }[]; camera: string }) {
  const [target, setTarget] = useState(camera);
  useEffect(() => setTarget((t) => camera || t), [camera]);
  const uploads = useUploads();
  const chosen = target || (cameras.length === 1 ? cameras[0]!.value : '');
  const finished = uploads.items.filter((i) => i.state !== 'waiting' && i.state !== 'sending').length;
  return (
    <Card title="Upload photos" id="upload">
      <div className="upload-grid">
        <SelectField
          label="To camera"
          empty={cameras.length ? 'Choose a camera' : 'Register a camera trap first'}
          value={chosen}
          options={cameras}
          onChange={(e) => setTarget(e.target.value)}
        />
        <DropZone
          onFiles={(files) => uploads.add(chosen, files)}
          disabled={!chosen}
          hint="JPEG or PNG, at most 20 MiB each. EXIF capture time and position are read from the photos."
        />
      </div>
      {uploads.items.length > 0 ? (
        <>
          <ul className="uploads" aria-label="Uploads">
            {uploads.items.map((item) => (
              <li key={item.id} data-upload-state={item.state} className={item.state === 'refused' ? 'refused' : undefined}>
                <span className="upload-name">{item.name}</span>
                <span className="muted small">{megabytes(item.size)}</span>
                <progress max={100} value={percent(item)} aria-label={`${item.name}: ${STATE_TEXT[item.state]}`} />
                <span className="upload-state">{STATE_TEXT[item.state]}</span>
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
              Clear finished
            </button>
          ) : null}
        </>
      ) : null}
    </Card>
  );
}
