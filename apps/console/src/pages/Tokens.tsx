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
import { expired, maskToken, untilFromInput } from '../lib/tokens';

const TYPES = [
  { value: 'API', label: 'App token: everything but master tokens, the password and deleting the account' },
  { value: 'master', label: 'Master token: everything the account may do' },
];

/** What each right allows, as docs/api.md §20 says. */
const RIGHT_TEXT: Record<KeyRight, string> = {
  read: 'Read everything in the account',
  devices: 'Register, edit, share, hand over and delete devices',
  commands: 'Send and cancel commands',
  images: 'Upload, annotate and delete images',
  codecs: 'Manage codecs',
  networks: 'Manage networks',
  automation: 'Manage fences, rules, alerts and integrations',
  keys: 'List, make and delete tokens',
  ingest: 'Send uplinks and images in',
  account: 'The person’s own settings: profile, sessions, organisations',
};

/** API tokens: listed (values hidden), created with a name and an expiry (the value shown once, to copy), deleted. */
export function TokensPage() {
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
      setUntilProblem('A date and time, or nothing for a token that does not expire.');
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
      <PageHeader
        title="API tokens"
        subtitle={
          acting === null
            ? 'For scripts and integrations: send one as “Authorization: Bearer …”.'
            : `Tokens of ${acting}: each acts in it alone, with at most your role, and stops if you leave.`
        }
      />
      {created ? (
        <Card title="Your new token" id="new-token">
          <p>Copy it now: the console will not show it again.</p>
          <CopyValue value={created.hash} label={`Value of the token ${created.name ?? created.uid}`} />
          <button type="button" className="ghost small" onClick={() => setCreated(null)}>
            I have copied it
          </button>
        </Card>
      ) : null}
      <Card title="Create a token" id="create-token">
        <form onSubmit={submit} noValidate className="grid-form">
          <SelectField
            label="Type"
            value={form.type}
            options={TYPES}
            onChange={(e) => setForm({ ...form, type: e.target.value })}
            error={fieldError(create.error, 'type')}
          />
          <TextField
            label="Name (optional)"
            maxLength={TOKEN_NAME_MAX_LENGTH}
            value={form.name}
            onChange={(e) => setForm({ ...form, name: e.target.value })}
            error={fieldError(create.error, 'name')}
          />
          <TextField
            label="Expires (UTC, optional)"
            type="datetime-local"
            value={form.until}
            onChange={(e) => setForm({ ...form, until: e.target.value })}
            error={untilProblem ?? fieldError(create.error, 'until')}
            hint="Empty: the token works until it is deleted."
          />
          <fieldset className="rights">
            <legend>What it may do</legend>
            <label>
              <input type="checkbox" checked={rights === null} onChange={(e) => setRights(e.target.checked ? null : ['read'])} /> Everything its type allows
            </label>
            {rights !== null
              ? KEY_RIGHTS.map((r) => (
                  <label key={r}>
                    <input
                      type="checkbox"
                      checked={rights.includes(r)}
                      onChange={(e) => setRights(e.target.checked ? [...rights, r] : rights.filter((x) => x !== r))}
                    />{' '}
                    <span className="mono">{r}</span>: {RIGHT_TEXT[r]}
                  </label>
                ))
              : null}
            {fieldError(create.error, 'rights') ? <small className="field-error">{fieldError(create.error, 'rights')}</small> : null}
          </fieldset>
          <ErrorBox error={create.error} />
          <div>
            <button type="submit" className="primary" disabled={create.isPending}>
              Create token
            </button>
          </div>
        </form>
      </Card>
      <Card title="Tokens" id="tokens">
        {tokens.isPending ? <Loading what="Loading tokens" /> : null}
        <ErrorBox error={tokens.error ?? remove.error} />
        {tokens.data && list.length === 0 ? <Empty>No tokens.</Empty> : null}
        {list.length > 0 ? (
          <div className="table-scroll">
            <table className="data-table static">
              <caption className="sr-only">API tokens</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Type</th>
                  <th scope="col">Rights</th>
                  <th scope="col">Value</th>
                  <th scope="col">Created (UTC)</th>
                  <th scope="col">Expires (UTC)</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((t) => (
                  <tr key={t.uid} data-token={t.uid}>
                    <td>{t.name ?? <span className="muted">unnamed</span>}</td>
                    <td>{t.type}</td>
                    <td className="small">{t.rights ? t.rights.join(', ') : 'all of its type'}</td>
                    <td className="mono">{maskToken(t.hash)}</td>
                    <td className="nowrap">{t.created}</td>
                    <td className="nowrap">{t.until ? `${t.until}${expired(t.until, now) ? ' (expired)' : ''}` : 'never'}</td>
                    <td>
                      <ConfirmButton
                        label="Delete"
                        confirm={`Delete the token ${t.name ?? t.uid}? Whatever uses it stops working.`}
                        pending={remove.isPending}
                        onConfirm={() => remove.mutate(t.uid)}
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
