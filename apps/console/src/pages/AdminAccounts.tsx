import type { AdminAccountWire, AdminDeviceFate } from '@dts/domain';
import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import { fieldError } from '../api/client';
import { useSession } from '../api/session';
import { ConfirmButton } from '../components/ConfirmButton';
import { type Column, DataTable } from '../components/DataTable';
import { TextField } from '../components/form';
import { Card, ErrorBox, Loading } from '../components/ui';
import { useAdminAccounts, useDeleteAccount, usePasswordReset, useUpdateAccount } from '../hooks/admin';
import { retentionInput, retentionText } from '../lib/format';

const daysText = (days: number | null) => (days === null ? '' : String(days));

/**
 * An account's retention of raw uplinks, edited in place: its own value, or empty for the platform
 * default; what is in force shown beside it.
 */
function AccountRetention({ account }: { account: AdminAccountWire }) {
  const update = useUpdateAccount();
  const [days, setDays] = useState(daysText(account.uplink_retention_days));
  const changed = days.trim() !== daysText(account.uplink_retention_days);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Text that is no number goes as typed: the service refuses it, naming the field.
    update.mutate({ id: account.id, body: { uplink_retention_days: retentionInput(days) as number | null } });
  };
  return (
    <form className="inline-form" onSubmit={submit} noValidate aria-label={`Retention of ${account.username}`}>
      <TextField
        label="Raw uplinks (days)"
        inputMode="numeric"
        placeholder="default"
        value={days}
        onChange={(e) => {
          update.reset();
          setDays(e.target.value);
        }}
        error={fieldError(update.error, 'uplink_retention_days')}
      />
      <button type="submit" className="small" disabled={!changed || update.isPending}>
        Save
      </button>
      <span className="muted small" data-retention-effective={account.uplink_retention_effective_days ?? 'forever'}>
        {update.isSuccess && !changed ? 'Saved: ' : ''}kept {retentionText(account.uplink_retention_effective_days)}
        {account.uplink_retention_days === null ? ' (platform default)' : ''}
      </span>
    </form>
  );
}

/** An account's limit and expiry, edited in place. */
function AccountLimits({ account }: { account: AdminAccountWire }) {
  const update = useUpdateAccount();
  const [form, setForm] = useState({ max: String(account.max_devices), expiration: account.expiration });
  const changed = form.max !== String(account.max_devices) || form.expiration !== account.expiration;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate({
      id: account.id,
      body: {
        ...(form.max !== String(account.max_devices) ? { max_devices: Number(form.max) } : {}),
        ...(form.expiration !== account.expiration ? { expiration: form.expiration } : {}),
      },
    });
  };
  return (
    <form className="inline-form" onSubmit={submit} noValidate aria-label={`Limits of ${account.username}`}>
      <TextField
        label="Devices at most"
        type="number"
        min={0}
        value={form.max}
        onChange={(e) => setForm({ ...form, max: e.target.value })}
        error={fieldError(update.error, 'max_devices')}
      />
      <TextField
        label="Expires (UTC)"
        type="date"
        value={form.expiration}
        onChange={(e) => setForm({ ...form, expiration: e.target.value })}
        error={fieldError(update.error, 'expiration')}
      />
      <button type="submit" className="small" disabled={!changed || update.isPending}>
        Save
      </button>
      {update.isSuccess && !changed ? (
        <span className="muted small" role="status">
          Saved
        </span>
      ) : null}
    </form>
  );
}

/**
 * Deletes an account, its devices deleted with it or handed to another account: the choice is
 * always made here, never assumed (a modal dialog).
 */
function DeleteAccountDialog({ account, onClose }: { account: AdminAccountWire; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const remove = useDeleteAccount();
  const [fate, setFate] = useState<AdminDeviceFate>('delete');
  const [to, setTo] = useState('');
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    remove.mutate(
      { id: account.id, query: fate === 'hand_over' ? { devices: fate, to: to.trim() } : { devices: fate } },
      { onSuccess: () => dialog.current?.close() },
    );
  };
  const devices = `${account.devices} device${account.devices === 1 ? '' : 's'}`;
  return (
    <dialog ref={dialog} className="dialog" aria-labelledby={`delete-${account.id}`} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <h2 id={`delete-${account.id}`}>Delete {account.username}</h2>
        <p>
          The account, its codecs, networks, fences, rules, integrations and tokens go for good. Its sessions and tokens stop at once. What of its {devices}?
        </p>
        <fieldset className="choices">
          <legend>Its devices</legend>
          <label>
            <input type="radio" name="fate" value="delete" checked={fate === 'delete'} onChange={() => setFate('delete')} /> Delete them with their data and
            photos
          </label>
          <label>
            <input type="radio" name="fate" value="hand_over" checked={fate === 'hand_over'} onChange={() => setFate('hand_over')} /> Hand them to another
            account
          </label>
        </fieldset>
        {fate === 'hand_over' ? (
          <TextField
            label="Receiving account (username)"
            hint="Its own codecs and networks stay behind: the devices fall back to the defaults"
            autoFocus
            value={to}
            onChange={(e) => {
              remove.reset();
              setTo(e.target.value);
            }}
            error={fieldError(remove.error, 'to')}
          />
        ) : null}
        <ErrorBox error={fieldError(remove.error, 'to') ? null : remove.error} />
        <div className="dialog-actions">
          <button type="button" className="ghost" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button type="submit" className="danger" disabled={remove.isPending}>
            Delete {account.username}
          </button>
        </div>
      </form>
    </dialog>
  );
}

/**
 * What an administrator does to an account: disable or enable it, mail it a reset link, delete it
 * (`onDelete` opens the page's dialog: a row of the table may be re-rendered or recycled while it is open).
 */
function AccountActions({ account, onDelete }: { account: AdminAccountWire; onDelete: () => void }) {
  const update = useUpdateAccount();
  const reset = usePasswordReset();
  const self = useSession().data?.id === account.id;
  return (
    <div className="inline-actions" role="group" aria-label={`Actions on ${account.username}`}>
      <span className={`badge ${account.active === 1 ? 'badge-ok' : 'badge-bad'}`} data-active={account.active}>
        {account.active === 1 ? 'Active' : 'Disabled'}
      </span>
      {self ? (
        <span className="muted small">your own account</span>
      ) : (
        <>
          {account.active === 1 ? (
            <ConfirmButton
              label="Disable"
              className="small"
              confirm={`Disable ${account.username}? Its sessions and tokens stop now.`}
              pending={update.isPending}
              onConfirm={() => update.mutate({ id: account.id, body: { active: 0 } })}
            />
          ) : (
            <button type="button" className="small" disabled={update.isPending} onClick={() => update.mutate({ id: account.id, body: { active: 1 } })}>
              Enable
            </button>
          )}
          {account.kind === 'organisation' ? null : reset.isSuccess ? (
            // In place of the button, so that the row keeps its height; the address is the row's own.
            <span className="muted small" role="status" title={`Mailed to ${reset.data.email}`}>
              Reset link mailed
            </span>
          ) : (
            <button type="button" className="ghost small" disabled={reset.isPending} onClick={() => reset.mutate(account.id)}>
              Send password reset
            </button>
          )}
          <button type="button" className="danger small" onClick={onDelete}>
            Delete…
          </button>
        </>
      )}
      <ErrorBox error={update.error ?? reset.error} />
    </div>
  );
}

/** Every account, searched by name or e-mail, with its devices, last sign-in and limits. */
export function AdminAccounts() {
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const accounts = useAdminAccounts(q);
  const [deleting, setDeleting] = useState<AdminAccountWire | null>(null);
  const rows = useMemo(() => accounts.data?.pages.flatMap((p) => p.accounts) ?? [], [accounts.data]);
  const total = accounts.data?.pages[0]?.meta.total;
  const columns: Column<AdminAccountWire>[] = [
    { key: 'username', header: 'Account', render: (a) => <span>{a.username}</span> },
    { key: 'email', header: 'E-mail', render: (a) => (a.kind === 'organisation' ? <span className="muted">none: its members sign in</span> : a.email) },
    {
      key: 'group',
      header: 'Kind',
      render: (a) => (a.kind === 'organisation' ? `organisation, ${a.members ?? 0} members` : a.groupid === 1 ? 'administrator' : 'person'),
    },
    { key: 'devices', header: 'Devices', className: 'num', render: (a) => <span data-devices={a.devices}>{a.devices}</span> },
    { key: 'login', header: 'Last sign-in (UTC)', render: (a) => a.last_login ?? 'never' },
    { key: 'limits', header: 'Device limit and expiry', render: (a) => <AccountLimits key={a.id} account={a} /> },
    { key: 'retention', header: 'Retention of raw uplinks', render: (a) => <AccountRetention key={a.id} account={a} /> },
    { key: 'actions', header: 'Access', render: (a) => <AccountActions key={a.id} account={a} onDelete={() => setDeleting(a)} /> },
  ];
  return (
    <Card title={`Accounts${total !== undefined ? ` (${total})` : ''}`} id="accounts">
      <form
        className="toolbar"
        role="search"
        aria-label="Search accounts"
        onSubmit={(e) => {
          e.preventDefault();
          setQ(text);
        }}
      >
        <TextField
          label="Search accounts"
          type="search"
          placeholder="Username or e-mail"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onBlur={() => setQ(text)}
        />
      </form>
      <ErrorBox error={accounts.error} />
      {accounts.isPending ? (
        <Loading what="Loading accounts" />
      ) : (
        <DataTable
          caption="Accounts"
          columns={columns}
          rows={rows}
          rowKey={(a) => a.id}
          rowHeight={92}
          total={total}
          maxHeight="60vh"
          onEndReached={() => {
            if (accounts.hasNextPage && !accounts.isFetchingNextPage) void accounts.fetchNextPage();
          }}
        />
      )}
      {deleting ? <DeleteAccountDialog key={deleting.id} account={deleting} onClose={() => setDeleting(null)} /> : null}
    </Card>
  );
}
