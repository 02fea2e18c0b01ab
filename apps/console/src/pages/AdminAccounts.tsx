import type { AdminAccountWire } from '@dts/domain';
import { type FormEvent, useMemo, useState } from 'react';
import { fieldError } from '../api/client';
import { type Column, DataTable } from '../components/DataTable';
import { TextField } from '../components/form';
import { Card, ErrorBox, Loading } from '../components/ui';
import { useAdminAccounts, useUpdateAccount } from '../hooks/admin';
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

/** Every account, searched by name or e-mail, with its devices, last sign-in and limits. */
export function AdminAccounts() {
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const accounts = useAdminAccounts(q);
  const rows = useMemo(() => accounts.data?.pages.flatMap((p) => p.accounts) ?? [], [accounts.data]);
  const total = accounts.data?.pages[0]?.meta.total;
  const columns: Column<AdminAccountWire>[] = [
    { key: 'username', header: 'Account', render: (a) => <span>{a.username}</span> },
    { key: 'email', header: 'E-mail', render: (a) => a.email },
    { key: 'group', header: 'Role', render: (a) => (a.groupid === 1 ? 'admin' : 'user') },
    { key: 'devices', header: 'Devices', className: 'num', render: (a) => <span data-devices={a.devices}>{a.devices}</span> },
    { key: 'login', header: 'Last sign-in (UTC)', render: (a) => a.last_login ?? 'never' },
    { key: 'limits', header: 'Device limit and expiry', render: (a) => <AccountLimits key={a.id} account={a} /> },
    { key: 'retention', header: 'Retention of raw uplinks', render: (a) => <AccountRetention key={a.id} account={a} /> },
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
    </Card>
  );
}
