import { Upload } from 'lucide-react';
import { type DragEvent, useId, useRef, useState } from 'react';
import { Trans } from 'react-i18next';
import { useTranslation } from '../i18n';

/**
 * Files dropped on it, or chosen with the file picker it opens (the keyboard's way): photos unless
 * told otherwise (`what`, `accept`, `multiple`, `inputLabel`, in the console's language).
 */
export function DropZone({
  onFiles,
  disabled,
  hint,
  what,
  accept = 'image/jpeg,image/png',
  multiple = true,
  inputLabel,
  testId = 'dropzone',
}: {
  onFiles: (files: File[]) => void;
  disabled?: boolean;
  hint?: string;
  what?: string;
  accept?: string;
  multiple?: boolean;
  inputLabel?: string;
  testId?: string;
}) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const id = useId();
  const drop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    if (!disabled && e.dataTransfer.files.length) onFiles([...e.dataTransfer.files]);
  };
  return (
    <div
      className={`dropzone${over ? ' over' : ''}${disabled ? ' disabled' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        if (!disabled) setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
      data-testid={testId}
    >
      <Upload aria-hidden size={22} />
      <p>
        <Trans
          t={t}
          i18nKey={multiple ? 'common.dropZone.promptMany' : 'common.dropZone.promptOne'}
          values={{ what: what ?? t('common.dropZone.photos') }}
          components={{
            choose: (
              <button
                type="button"
                className="link-button"
                onClick={() => input.current?.click()}
                disabled={disabled}
                aria-describedby={hint ? `${id}-hint` : undefined}
              />
            ),
          }}
        />
      </p>
      {hint ? (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      ) : null}
      <input
        ref={input}
        type="file"
        accept={accept}
        multiple={multiple}
        hidden
        aria-label={inputLabel ?? t('common.dropZone.inputLabel')}
        onChange={(e) => {
          if (e.target.files?.length) onFiles([...e.target.files]);
          e.target.value = '';
        }}
      />
    </div>
  );
}
