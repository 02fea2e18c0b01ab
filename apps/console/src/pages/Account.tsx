import { PASSWORD_MIN_LENGTH } from '@dts/domain';
import { type FormEvent, useState } from 'react';
import { fieldError } from '../api/client';
import { useSession, useSignOut } from '../api/session';
import { TextField } from '../components/form';
import { ConfirmButton } from '../components/ConfirmButton';
import { Card, ErrorBox, Loading, PageHeader } from '../components/ui';
import {
  useChangeEmail,
  useChangePassword,
  useDeleteAccount,
  useEndOtherSessions,
  useEndSession,
  useRequestVerification,
  useSessionInfo,
  useUserSessions,
} from '../hooks/account';
import { useNow } from '../hooks/now';
import { plural, relativeTime, retentionText, utcText } from '../lib/format';
import { describeUserAgent } from '../lib/user-agent';

/**
 * The address and whether it is verified (docs/api.md §3): until it is, no alert mail goes to it.
 * An address waiting for its verification is shown beside it, with the way to mail its link again.
 */
function EmailFact() {
  const me = useSession().data;
  const resend = useRequestVerification();
  if (!me) return null;
  const waiting = me.email_pending ?? (me.email_verified ? null : me.email);
  return (
    <div className="fact" id="email-fact">
      <dt>E-mail</dt>
      <dd>
        {me.email} {me.email_verified ? <span className="badge badge-ok">Verified</span> : <span className="badge badge-warn">Not verified</span>}
        {!me.email_verified ? <p className="muted small">No alert mail goes to it until you confirm it with the link we mailed you.</p> : null}
        {me.email_pending ? (
          <p className="muted small">
            Changing to <strong>{me.email_pending}</strong> once you confirm it with the link mailed there.
          </p>
        ) : null}
        {waiting !== null ? (
          <>
            {resend.isSuccess && resend.data.to ? (
              <p className="notice" role="status">
                A new verification link is on its way to {resend.data.to}; the earlier one no longer works.
              </p>
            ) : null}
            <ErrorBox error={resend.error} />
            <button type="button" className="small" onClick={() => resend.mutate()} disabled={resend.isPending}>
              Send the verification mail again
            </button>
          </>
        ) : null}
      </dd>
    </div>
  );
}

function Profile() {
  const me = useSession().data;
  if (!me) return null;
  const rows: [string, string][] = [
    ['Full name', me.fullname ?? '–'],
    ['Account', me.groupid === 1 ? 'Administrator' : 'User'],
    ['Subscription', me.subscription],
    ['Devices at most', String(me.max_devices)],
    ['Registers devices until', me.expiration],
    ['Raw uplinks kept', retentionText(me.uplink_retention_effective_days)],
    ['Created (UTC)', me.created],
    ['Last sign-in (UTC)', me.last_login ?? '–'],
  ];
  return (
    <Card title="Profile" id="profile">
      <dl className="facts">
        <div className="fact">
          <dt>Username</dt>
          <dd>{me.username}</dd>
        </div>
        <EmailFact />
        {rows.map(([k, v]) => (
          <div key={k} className="fact">
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      <p className="muted small">
        An administrator sets how long the account’s raw uplinks are kept; a device’s owner may keep its own shorter (the device’s Settings). Charts keep hourly
        and daily figures for longer.
      </p>
    </Card>
  );
}

/** A new address: it takes over once the link mailed to it is opened; the current address again withdraws the change. */
function ChangeEmail() {
  const change = useChangeEmail();
  const [form, setForm] = useState({ email: '', password: '' });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate({ email: form.email, current_password: form.password }, { onSuccess: () => setForm({ email: '', password: '' }) });
  };
  return (
    <Card title="Change the e-mail address" id="change-email">
      <form onSubmit={submit} noValidate>
        <TextField
          label="New e-mail address"
          type="email"
          autoComplete="email"
          required
          value={form.email}
          onChange={(e) => setForm({ ...form, email: e.target.value })}
          error={fieldError(change.error, 'email')}
        />
        <TextField
          label="Password of the account"
          type="password"
          autoComplete="current-password"
          required
          value={form.password}
          onChange={(e) => setForm({ ...form, password: e.target.value })}
          error={fieldError(change.error, 'current_password')}
        />
        <ErrorBox error={change.error} />
        {change.isSuccess ? (
          <p className="notice" role="status">
            {change.data.email_pending
              ? `A verification link has gone to ${change.data.email_pending}: the address changes once you open it.`
              : 'No change is pending: the account keeps its address.'}
          </p>
        ) : null}
        <button type="submit" className="primary" disabled={change.isPending}>
          Change the address
        </button>
      </form>
    </Card>
  );
}

function Sessions() {
  const info = useSessionInfo();
  const signOut = useSignOut();
  const s = info.data;
  return (
    <Card title="Session" id="session">
      {info.isPending ? <Loading what="Loading the session" /> : null}
      <ErrorBox error={info.error} />
      {s ? (
        <dl className="facts">
          <div className="fact">
            <dt>This session started (UTC)</dt>
            <dd>{utcText(s.attributes.created_unix)}</dd>
          </div>
          <div className="fact">
            <dt>Last used (UTC)</dt>
            <dd>{utcText(s.attributes.last_seen_unix)}</dd>
          </div>
          <div className="fact">
            <dt>Ends unless used (UTC)</dt>
            <dd>{utcText(s.active.expires_unix)}</dd>
          </div>
          <div className="fact">
            <dt>Cookie</dt>
            <dd>
              {s.cookie.name}: HttpOnly{s.cookie.secure ? ', Secure' : ''}, SameSite={s.cookie.same_site}
            </dd>
          </div>
        </dl>
      ) : null}
      <p className="muted small">Changing the password ends every other session of the account; its API tokens stay.</p>
      <button type="button" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
        Sign out of this session
      </button>
    </Card>
  );
}

/** Where the account is signed in: every live session, this one marked, each with its way out. */
function SignedIn() {
  const sessions = useUserSessions();
  const end = useEndSession();
  const endOthers = useEndOtherSessions();
  const now = useNow();
  const list = sessions.data ?? [];
  const others = list.filter((s) => !s.current).length;
  return (
    <Card title="Where you are signed in" id="sessions">
      {sessions.isPending ? <Loading what="Loading the sessions" /> : null}
      <ErrorBox error={sessions.error ?? end.error ?? endOthers.error} />
      {list.length > 0 ? (
        <ul className="session-list" aria-label="Sessions">
          {list.map((s) => {
            const browser = describeUserAgent(s.user_agent);
            return (
              <li key={s.id} data-session={s.id} data-current={s.current || undefined}>
                <div className="session-what">
                  <span>
                    <strong>{browser}</strong> {s.current ? <span className="badge badge-ok">This device</span> : null}
                  </span>
                  <span className="muted small">
                    {s.ip ?? 'address unknown'} · {s.current ? 'in use now' : `last used ${relativeTime(s.last_seen_unix, now)}`} · signed in{' '}
                    {utcText(s.created_unix)} UTC
                  </span>
                </div>
                <ConfirmButton
                  label="Sign out"
                  className="small"
                  confirm={s.current ? 'Sign out of this device?' : `Sign out ${browser}? It has to sign in again.`}
                  pending={end.isPending}
                  onConfirm={() => end.mutate(s.id)}
                />
              </li>
            );
          })}
        </ul>
      ) : null}
      {endOthers.isSuccess ? (
        <p className="notice" role="status">
          {endOthers.data.ended === 1 ? 'One other session has ended.' : `${plural(endOthers.data.ended, 'other session')} have ended.`}
        </p>
      ) : null}
      <ConfirmButton
        label="Sign out everywhere else"
        className="danger"
        confirm={`Sign out the ${others === 1 ? 'other session' : plural(others, 'other session')}?`}
        pending={endOthers.isPending || others === 0}
        onConfirm={() => endOthers.mutate()}
      />
    </Card>
  );
}

function ChangePassword() {
  const change = useChangePassword();
  const [form, setForm] = useState({ current: '', next: '' });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate({ current_password: form.current, new_password: form.next }, { onSuccess: () => setForm({ current: '', next: '' }) });
  };
  return (
    <Card title="Change the password" id="password">
      <form onSubmit={submit} noValidate>
        <TextField
          label="Current password"
          type="password"
          autoComplete="current-password"
          required
          value={form.current}
          onChange={(e) => setForm({ ...form, current: e.target.value })}
          error={fieldError(change.error, 'current_password')}
        />
        <TextField
          label="New password"
          hint={`At least ${PASSWORD_MIN_LENGTH} characters`}
          type="password"
          autoComplete="new-password"
          required
          value={form.next}
          onChange={(e) => setForm({ ...form, next: e.target.value })}
          error={fieldError(change.error, 'new_password')}
        />
        <ErrorBox error={change.error} />
        {change.isSuccess ? (
          <p className="notice" role="status">
            The password is changed; your other sessions have ended.
          </p>
        ) : null}
        <button type="submit" className="primary" disabled={change.isPending}>
          Change the password
        </button>
      </form>
    </Card>
  );
}

function DeleteAccount() {
  const remove = useDeleteAccount();
  const [password, setPassword] = useState('');
  const [sure, setSure] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    remove.mutate(password);
  };
  return (
    <Card title="Delete the account" id="delete-account">
      <p>Every device, uplink, photo, fence, codec and token of the account goes with it, for good.</p>
      <form onSubmit={submit} noValidate>
        <TextField
          label="Password, to confirm"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={fieldError(remove.error, 'password')}
        />
        <label className="check">
          <input type="checkbox" checked={sure} onChange={(e) => setSure(e.target.checked)} /> I understand that this cannot be undone
        </label>
        <ErrorBox error={remove.error} />
        <button type="submit" className="danger" disabled={!sure || !password || remove.isPending}>
          Delete the account
        </button>
      </form>
    </Card>
  );
}

/** The signed-in account: profile (the address and its verification), this session, every session, address, password, deletion. */
export function AccountPage() {
  return (
    <>
      <PageHeader title="Account" />
      <div className="device-grid">
        <Profile />
        <Sessions />
        <SignedIn />
        <ChangeEmail />
        <ChangePassword />
        <DeleteAccount />
      </div>
    </>
  );
}
