import { fieldError } from '../../api/client';
import { TextField } from '../../components/form';
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
  const at = (member: keyof ScopeDraft) => fieldError(error, `devices.${member}`) ?? (member === 'euis' ? fieldError(error, 'devices') : undefined);
  return (
    <fieldset className="scope-fields" disabled={disabled}>
      <legend>Devices</legend>
      <p className="hint">Leave all three empty for every device. Each one filled in must hold.</p>
      <div className="scope-grid">
        <TextField
          label="Device EUIs"
          hint="Separated by commas or spaces."
          value={value.euis}
          onChange={(e) => onChange({ ...value, euis: e.target.value })}
          error={at('euis')}
          className="mono"
          autoComplete="off"
        />
        <TextField
          label="Folder"
          value={value.folder}
          onChange={(e) => onChange({ ...value, folder: e.target.value })}
          error={at('folder')}
          autoComplete="off"
        />
        <TextField
          label="Tags"
          hint="Any one of them, separated by commas."
          value={value.tags}
          onChange={(e) => onChange({ ...value, tags: e.target.value })}
          error={at('tags')}
          autoComplete="off"
        />
      </div>
    </fieldset>
  );
}

/** One line telling which devices a rule or integration covers. */
export function scopeText(devices: { euis: string[] | null; folder: string | null; tags: string[] | null } | null): string {
  if (!devices) return 'Every device';
  const parts: string[] = [];
  if (devices.euis?.length) parts.push(devices.euis.length === 1 ? `Device ${devices.euis[0]}` : `${devices.euis.length.toLocaleString('en')} chosen devices`);
  if (devices.folder) parts.push(`Folder ${devices.folder}`);
  if (devices.tags?.length) parts.push(`Tagged ${devices.tags.join(' or ')}`);
  return parts.join(' · ');
}
