import type { AdminAccountWire, AdminDeviceFate } from '@dts/domain';
import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import { fieldError } from '../api/client';
import { useSession } from '../api/session';
import { ConfirmButton } from '../components/ConfirmButton';
import { type Column, DataTable } from '../components/DataTable';
import { TextField } from '../components/form';
import { Card, ErrorBox, Loading } from '../components/ui';
import { useAdminAccounts, useDeleteAccount, usePasswordReset, useUpdateAccount } from '../hooks/admin';
import { useTranslation } from '../i18n';
import { count, retentionInput } from '../lib/format';

const daysText = (days: number | null) => (days === null ? '' : String(days));

/**
 * An account's retention of raw uplinks, edited in place: its own value, or empty for the platform
 * default; what is in force shown beside it.
 */
function AccountRetention({ account }: { account: AdminAccountWire }) {
  const { t } = useTranslation();
  const update = useUpdateAccount();
  const [days, setDays] = useState(daysText(account.uplink_retention_days));
  const changed = days.trim() !== daysText(account.uplink_retention_days);
  const effective = account.uplink_retention_effective_days;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Text that is no number goes as typed: the service refuses it, naming the field.
    update.mutate({ id: account.id, body: { uplink_retention_days: retentionInput(days) as number | null } });
  };
  return (
    <form className="inline-form" onSubmit={submit} noValidate aria-label={t('admin.retention.label', { name: account.username })}>
      <TextField
        label={t('admin.retention.days')}
        inputMode="numeric"
        placeholder={t('admin.retention.placeholder')}
        value={days}
        onChange={(e) => {
          update.reset();
          setDays(e.target.value);
        }}
        error={fieldError(update.error, 'uplink_retention_days')}
      />
      <button type="submit" className="small" disabled={!changed || update.isPending}>
        {t('common.save')}
      </button>
      <span className="muted small" data-retention-effective={account.uplink_retention_effective_days ?? 'forever'}>
        {t(
          update.isSuccess && !changed
            ? account.uplink_retention_days === null
              ? 'admin.retention.savedKeptDefault'
              : 'admin.retention.savedKept'
            : account.uplink_retention_days === null
              ? 'admin.retention.keptDefault'
              : 'admin.retention.kept',
          { retention: effective === null ? t('common.retention.forever') : t('common.retention.days', { count: effective }) },
        )}
      </span>
    </form>
  );
}

/** An account's limit and expiry, edited in place. */
function AccountLimits({ account }: { account: AdminAccountWire }) {
  const { t } = useTranslation();
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
    <form className="inline-form" onSubmit={submit} noValidate aria-label={t('admin.limits.label', { name: account.username })}>
      <TextField
        label={t('admin.limits.maxDevices')}
        type="number"
        min={0}
        value={form.max}
        onChange={(e) => setForm({ ...form, max: e.target.value })}
        error={fieldError(update.error, 'max_devices')}
      />
      <TextField
        label={t('admin.limits.expiration')}
        type="date"
        value={form.expiration}
        onChange={(e) => setForm({ ...form, expiration: e.target.value })}
        error={fieldError(update.error, 'expiration')}
      />
      <button type="submit" className="small" disabled={!changed || update.isPending}>
        {t('common.save')}
      </button>
      {update.isSuccess && !changed ? (
        <span className="muted small" role="status">
          {t('common.saved')}
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
  const { t } = useTranslation();
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
  return (
    <dialog ref={dialog} className="dialog" aria-labelledby={`delete-${account.id}`} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <h2 id={`delete-${account.id}`}>{t('admin.deleteDialog.title', { name: account.username })}</h2>
        <p>{t('admin.deleteDialog.text', { count: account.devices })}</p>
        <fieldset className="choices">
          <legend>{t('admin.deleteDialog.devices')}</legend>
          <label>
            <input type="radio" name="fate" value="delete" checked={fate === 'delete'} onChange={() => setFate('delete')} /> {t('admin.deleteDialog.delete')}
          </label>
          <label>
            <input type="radio" name="fate" value="hand_over" checked={fate === 'hand_over'} onChange={() => setFate('hand_over')} />{' '}
            {t('admin.deleteDialog.handOver')}
          </label>
        </fieldset>
        {fate === 'hand_over' ? (
          <TextField
            label={t('admin.deleteDialog.to')}
            hint={t('admin.deleteDialog.toHint')}
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
            {t('common.cancel')}
          </button>
          <button type="submit" className="danger" disabled={remove.isPending}>
            {t('admin.deleteDialog.submit', { name: account.username })}
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
  const { t } = useTranslation();
  return (
    <div className="inline-actions" role="group" aria-label={t('admin.actions.label', { name: account.username })}>
      <span className={`badge ${account.active === 1 ? 'badge-ok' : 'badge-bad'}`} data-active={account.active}>
        {account.active === 1 ? t('admin.actions.active') : t('admin.actions.disabled')}
      </span>
      {self ? (
        <span className="muted small">{t('admin.actions.self')}</span>
      ) : (
        <>
          {account.active === 1 ? (
            <ConfirmButton
              label={t('admin.actions.disable')}
              className="small"
              confirm={t('admin.actions.confirmDisable', { name: account.username })}
              pending={update.isPending}
              onConfirm={() => update.mutate({ id: account.id, body: { active: 0 } })}
            />
          ) : (
            <button type="button" className="small" disabled={update.isPending} onClick={() => update.mutate({ id: account.id, body: { active: 1 } })}>
              {t('admin.actions.enable')}
            </button>
          )}
          {account.kind === 'organisation' ? null : reset.isSuccess ? (
            // In place of the button, so that the row keeps its height; the address is the row's own.
            <span className="muted small" role="status" title={t('admin.actions.mailedTo', { email: reset.data.email })}>
              {t('admin.actions.resetMailed')}
            </span>
          ) : (
            <button type="button" className="ghost small" disabled={reset.isPending} onClick={() => reset.mutate(account.id)}>
              {t('admin.actions.sendReset')}
            </button>
          )}
          <button type="button" className="danger small" onClick={onDelete}>
            {t('admin.actions.delete')}
          </button>
        </>
      )}
      <ErrorBox error={update.error ?? reset.error} />
    </div>
  );
}

/** Every account, searched by name or e-mail, with its devices, last sign-in and limits. */
export function AdminAccounts() {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const accounts = useAdminAccounts(q);
  const [deleting, setDeleting] = useState<AdminAccountWire | null>(null);
  const rows = useMemo(() => accounts.data?.pages.flatMap((p) => p.accounts) ?? [], [accounts.data]);
  const total = accounts.data?.pages[0]?.meta.total;
  const columns: Column<AdminAccountWire>[] = [
    { key: 'username', header: t('admin.accounts.columns.account'), render: (a) => <span>{a.username}</span> },
    {
      key: 'email',
      header: t('admin.accounts.columns.email'),
      render: (a) => (a.kind === 'organisation' ? <span className="muted">{t('admin.accounts.noEmail')}</span> : a.email),
    },
    {
      key: 'group',
      header: t('admin.accounts.columns.kind'),
      render: (a) =>
        a.kind === 'organisation'
          ? t('admin.accounts.organisation', { count: a.members ?? 0 })
          : a.groupid === 1
            ? t('admin.accounts.administrator')
            : t('admin.accounts.person'),
    },
    { key: 'devices', header: t('admin.accounts.columns.devices'), className: 'num', render: (a) => <span data-devices={a.devices}>{count(a.devices)}</span> },
    { key: 'login', header: t('admin.accounts.columns.login'), render: (a) => a.last_login ?? t('admin.accounts.never') },
    { key: 'limits', header: t('admin.accounts.columns.limits'), render: (a) => <AccountLimits key={a.id} account={a} /> },
    { key: 'retention', header: t('admin.accounts.columns.retention'), render: (a) => <AccountRetention key={a.id} account={a} /> },
    { key: 'actions', header: t('admin.accounts.columns.access'), render: (a) => <AccountActions key={a.id} account={a} onDelete={() => setDeleting(a)} /> },
  ];
  return (
    <Card title={total !== undefined ? t('admin.accounts.titleTotal', { total }) : t('admin.accounts.title')} id="accounts">
      <form
        className="toolbar"
        role="search"
        aria-label={t('admin.accounts.search')}
        onSubmit={(e) => {
          e.preventDefault();
          setQ(text);
        }}
      >
        <TextField
          label={t('admin.accounts.search')}
          type="search"
          placeholder={t('admin.accounts.searchPlaceholder')}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onBlur={() => setQ(text)}
        />
      </form>
      <ErrorBox error={accounts.error} />
      {accounts.isPending ? (
        <Loading what={t('admin.accounts.loading')} />
      ) : (
        <DataTable
          caption={t('admin.accounts.caption')}
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
