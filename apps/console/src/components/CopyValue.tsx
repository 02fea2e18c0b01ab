import { Check, Copy } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from '../i18n';

/** A secret shown once, selectable, with a copy button (the clipboard may be refused: the text stays selectable). */
export function CopyValue({ value, label }: { value: string; label: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('yes');
    } catch {
      setCopied('no');
    }
  };
  return (
    <div className="copy-value">
      <code aria-label={label} data-secret>
        {value}
      </code>
      <button type="button" className="small" onClick={() => void copy()}>
        {copied === 'yes' ? <Check aria-hidden size={14} /> : <Copy aria-hidden size={14} />}{' '}
        {copied === 'yes' ? t('common.copy.copied') : t('common.copy.copy')}
      </button>
      <span role="status" className="sr-only">
        {copied === 'yes' ? t('common.copy.copiedStatus') : copied === 'no' ? t('common.copy.refused') : ''}
      </span>
    </div>
  );
}
