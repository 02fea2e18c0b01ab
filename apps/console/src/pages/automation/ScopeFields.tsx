import { fieldError } from '../../api/client';
import { TextField } from '../../components/form';
import { i18n, useTranslation } from '../../i18n';
import type { ScopeDraft } from '../../lib/automation-draft';

/**
 * Which devices: EUIs, a folder, tags — every criterion given must hold; none given is every device
 * (docs/api.md §18). The service's errors come back as `devices.euis`, `devices.folder`, `devices.tags`.
 */
export function ScopeFields({
  value,
  onChange,
  error,
  disabled,
}: {
  value: ScopeDraft;
  onChange: (next: ScopeDraft) => void;
  error: unknown;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const at = (member: keyof ScopeDraft) => fieldError(error, `devices.${member}`) ?? (member === 'euis' ? fieldError(error, 'devices') : undefined);
  return (
    <fieldset className="scope-fields" disabled={disabled}>
      <legend>{t('rules.scope.legend')}</legend>
      <p className="hint">{t('rules.scope.hint')}</p>
      <div className="scope-grid">
        <TextField
          label={t('rules.scope.euis')}
          hint={t('rules.scope.euisHint')}
          value={value.euis}
          onChange={(e) => onChange({ ...value, euis: e.target.value })}
          error={at('euis')}
          className="mono"
          autoComplete="off"
        />
        <TextField
          label={t('rules.scope.folder')}
          value={value.folder}
          onChange={(e) => onChange({ ...value, folder: e.target.value })}
          error={at('folder')}
          autoComplete="off"
        />
        <TextField
          label={t('rules.scope.tags')}
          hint={t('rules.scope.tagsHint')}
          value={value.tags}
          onChange={(e) => onChange({ ...value, tags: e.target.value })}
          error={at('tags')}
          autoComplete="off"
        />
      </div>
    </fieldset>
  );
}

/** One line telling which devices a rule or integration covers, in the console's language. */
export function scopeText(devices: { euis: string[] | null; folder: string | null; tags: string[] | null } | null): string {
  const t = i18n.t;
  if (!devices) return t('rules.scope.every');
  const parts: string[] = [];
  if (devices.euis?.length)
    parts.push(devices.euis.length === 1 ? t('rules.scope.device', { eui: devices.euis[0] }) : t('rules.scope.chosen', { count: devices.euis.length }));
  if (devices.folder) parts.push(t('rules.scope.inFolder', { folder: devices.folder }));
  if (devices.tags?.length) parts.push(t('rules.scope.tagged', { tags: devices.tags.join(t('rules.scope.or')) }));
  return parts.join(' · ');
}
