import { type ReactNode, useEffect, useRef, useState } from 'react';
import { currentLanguage, useTranslation } from '../i18n';

/**
 * A destructive action asked twice: the button turns into "Sure?" with the action and a way back,
 * focus on the way back (Escape works too), so a stray click or Enter never deletes anything.
 */
export function ConfirmButton({
  label,
  confirm,
  onConfirm,
  pending,
  className = 'danger small',
}: {
  label: ReactNode;
  /** The question, naming what goes. */
  confirm: string;
  onConfirm: () => void;
  pending?: boolean;
  className?: string;
}) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState(false);
  const back = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) back.current?.focus();
  }, [asking]);
  if (!asking)
    return (
      <button type="button" className={className} onClick={() => setAsking(true)} disabled={pending}>
        {label}
      </button>
    );
  return (
    <span className="confirm" role="group" aria-label={confirm} onKeyDown={(e) => e.key === 'Escape' && setAsking(false)}>
      <span className="confirm-text">{confirm}</span>
      <button
        type="button"
        className="danger small"
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {typeof label === 'string'
          ? // English says the action in lower case ("Yes, delete"); German keeps the label's own capitals (its nouns).
            t('common.confirm.yes', { action: currentLanguage() === 'en' ? label.toLowerCase() : label })
          : t('common.confirm.yesGoOn')}
      </button>
      <button type="button" className="ghost small" ref={back} onClick={() => setAsking(false)}>
        {t('common.confirm.no')}
      </button>
    </span>
  );
}
