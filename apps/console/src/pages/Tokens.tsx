import { KEY_RIGHTS, type KeyRight, TOKEN_NAME_MAX_LENGTH, type ApiTokenWire } from '@dts/domain';
import { type FormEvent, useState } from 'react';
import { fieldError } from '../api/client';
import { useActingOrganisation } from '../api/organisation';
import { ConfirmButton } from '../components/ConfirmButton';
import { CopyValue } from '../components/CopyValue';
import { SelectField, TextField } from '../components/form';
import { Card, Empty, ErrorBox, Loading, PageHeader } from '../components/ui';
import { useCreateToken, useDeleteToken, useTokens } from '../hooks/account';
import { useNow } from '../hooks/now';
import { useTranslation } from '../i18n';
import { expired, maskToken, untilFromInput } from '../lib/tokens';
import { TableHead } from '../components/TableHead';

const TYPES = ['API', 'master'] as const;

/** API tokens: listed (values hidden), created with a name and an expiry (the value shown once, to copy), deleted. */
export function TokensPage() {
  const { t } = useTranslation();
  const tokens = useTokens();
  const create = useCreateToken();
  const remove = useDeleteToken();
  const now = useNow();
  const acting = useActingOrganisation();
  const [form, setForm] = useState({ type: 'API', name: '', until: '' });
  // null: everything the type allows; a list: only these.
  const [rights, setRights] = useState<KeyRight[] | null>(null);
  const [created, setCreated] = useState<ApiTokenWire | null>(null);
  const [untilProblem, setUntilProblem] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const until = untilFromInput(form.until);
    if (form.until && !until) {
      setUntilProblem(t('tokens.form.untilProblem'));
      return;
    }
    setUntilProblem(undefined);
    create.mutate(
      {
        type: form.type as 'API' | 'master',
        ...(form.name.trim() ? { name: form.name.trim() } : {}),
        ...(until ? { until } : {}),
        ...(rights ? { rights } : {}),
      },
      {
        onSuccess: (token) => {
          setCreated(token);
          setForm({ type: form.type, name: '', until: '' });
        },
      },
    );
  };
  const list = tokens.data ?? [];
  return (
    <>
      <PageHeader title={t('tokens.title')} subtitle={acting === null ? t('tokens.subtitle') : t('tokens.subtitleOrganisation', { organisation: acting })} />
      {created ? (
        <Card title={t('tokens.created.title')} id="new-token">
          <p>{t('tokens.created.copyNow')}</p>
          <CopyValue value={created.hash} label={t('tokens.created.valueLabel', { name: created.name ?? created.uid })} />
          <button type="button" className="ghost small" onClick={() => setCreated(null)}>
            {t('tokens.created.done')}
          </button>
        </Card>
      ) : null}
      <Card title={t('tokens.form.title')} id="create-token">
        <form onSubmit={submit} noValidate className="grid-form">
          <SelectField
            label={t('tokens.form.type')}
            value={form.type}
            options={TYPES.map((value) => ({ value, label: t(`tokens.types.${value}`) }))}
            onChange={(e) => setForm({ ...form, type: e.target.value })}
            error={fieldError(create.error, 'type')}
          />
          <TextField
            label={t('tokens.form.name')}
            maxLength={TOKEN_NAME_MAX_LENGTH}
            value={form.name}
            onChange={(e) => setForm({ ...form, name: e.target.value })}
            error={fieldError(create.error, 'name')}
          />
          <TextField
            label={t('tokens.form.until')}
            type="datetime-local"
            value={form.until}
            onChange={(e) => setForm({ ...form, until: e.target.value })}
            error={untilProblem ?? fieldError(create.error, 'until')}
            hint={t('tokens.form.untilHint')}
          />
          <fieldset className="rights">
            <legend>{t('tokens.form.rights')}</legend>
            <label>
              <input type="checkbox" checked={rights === null} onChange={(e) => setRights(e.target.checked ? null : ['read'])} /> {t('tokens.form.allRights')}
            </label>
            {rights !== null
              ? KEY_RIGHTS.map((r) => (
                  <label key={r}>
                    <input
                      type="checkbox"
                      checked={rights.includes(r)}
                      onChange={(e) => setRights(e.target.checked ? [...rights, r] : rights.filter((x) => x !== r))}
                    />{' '}
                    <span className="mono">{r}</span>: {t(`tokens.rights.${r}`)}
                  </label>
                ))
              : null}
            {fieldError(create.error, 'rights') ? <small className="field-error">{fieldError(create.error, 'rights')}</small> : null}
          </fieldset>
          <ErrorBox error={create.error} />
          <div>
            <button type="submit" className="primary" disabled={create.isPending}>
              {t('tokens.form.submit')}
            </button>
          </div>
        </form>
      </Card>
      <Card title={t('tokens.list.title')} id="tokens">
        {tokens.isPending ? <Loading what={t('tokens.list.loading')} /> : null}
        <ErrorBox error={tokens.error ?? remove.error} />
        {tokens.data && list.length === 0 ? <Empty>{t('tokens.list.empty')}</Empty> : null}
        {list.length > 0 ? (
          <div className="table-scroll">
            <table className="data-table static">
              <TableHead
                caption={t('tokens.list.caption')}
                columns={[
                  t('tokens.list.name'),
                  t('tokens.list.type'),
                  t('tokens.list.rights'),
                  t('tokens.list.value'),
                  t('tokens.list.created'),
                  t('tokens.list.until'),
                ]}
                actions={t('tokens.list.actions')}
              />
              <tbody>
                {list.map((token) => (
                  <tr key={token.uid} data-token={token.uid}>
                    <td>{token.name ?? <span className="muted">{t('tokens.list.unnamed')}</span>}</td>
                    <td>{token.type}</td>
                    <td className="small">{token.rights ? token.rights.join(', ') : t('tokens.list.allOfType')}</td>
                    <td className="mono">{maskToken(token.hash)}</td>
                    <td className="nowrap">{token.created}</td>
                    <td className="nowrap">
                      {token.until ? (expired(token.until, now) ? t('tokens.list.expired', { until: token.until }) : token.until) : t('tokens.list.never')}
                    </td>
                    <td>
                      <ConfirmButton
                        label={t('tokens.list.delete')}
                        confirm={t('tokens.list.confirmDelete', { name: token.name ?? token.uid })}
                        pending={remove.isPending}
                        onConfirm={() => remove.mutate(token.uid)}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </Card>
    </>
  );
}
