import { PASSWORD_MIN_LENGTH } from '@dts/domain';
import { type FormEvent, useState } from 'react';
import { Trans } from 'react-i18next';
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
import { useTranslation } from '../i18n';
import { relativeTime, utcText } from '../lib/format';
import { describeUserAgent } from '../lib/user-agent';

/**
 * The address and whether it is verified (docs/api.md §3): until it is, no alert mail goes to it.
 * An address waiting for its verification is shown beside it, with the way to mail its link again.
 */
function EmailFact() {
  const { t } = useTranslation();
  const me = useSession().data;
  const resend = useRequestVerification();
  if (!me) return null;
  const waiting = me.email_pending ?? (me.email_verified ? null : me.email);
  return (
    <div className="fact" id="email-fact">
      <dt>{t('account.email.label')}</dt>
      <dd>
        {me.email}{' '}
        {me.email_verified ? (
          <span className="badge badge-ok">{t('account.email.verified')}</span>
        ) : (
          <span className="badge badge-warn">{t('account.email.notVerified')}</span>
        )}
        {!me.email_verified ? <p className="muted small">{t('account.email.noMail')}</p> : null}
        {me.email_pending ? (
          <p className="muted small">
            <Trans t={t} i18nKey="account.email.changing" values={{ email: me.email_pending }} components={{ strong: <strong /> }} />
          </p>
        ) : null}
        {waiting !== null ? (
          <>
            {resend.isSuccess && resend.data.to ? (
              <p className="notice" role="status">
                {t('account.email.resent', { email: resend.data.to })}
              </p>
            ) : null}
            <ErrorBox error={resend.error} />
            <button type="button" className="small" onClick={() => resend.mutate()} disabled={resend.isPending}>
              {t('account.email.resend')}
            </button>
          </>
        ) : null}
      </dd>
    </div>
  );
}

function Profile() {
  const { t } = useTranslation();
  const me = useSession().data;
  if (!me) return null;
  const retention = me.uplink_retention_effective_days;
  const rows: [string, string][] = [
    [t('account.profile.fullname'), me.fullname ?? '–'],
    [t('account.profile.account'), me.groupid === 1 ? t('account.profile.administrator') : t('account.profile.user')],
    [t('account.profile.subscription'), me.subscription],
    [t('account.profile.maxDevices'), String(me.max_devices)],
    [t('account.profile.expiration'), me.expiration],
    [t('account.profile.retention'), retention === null ? t('common.retention.forever') : t('common.retention.days', { count: retention })],
    [t('account.profile.created'), me.created],
    [t('account.profile.lastLogin'), me.last_login ?? '–'],
  ];
  return (
    <Card title={t('account.profile.title')} id="profile">
      <dl className="facts">
        <div className="fact">
          <dt>{t('account.profile.username')}</dt>
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
      <p className="muted small">{t('account.profile.retentionNote')}</p>
    </Card>
  );
}

/** A new address: it takes over once the link mailed to it is opened; the current address again withdraws the change. */
function ChangeEmail() {
  const { t } = useTranslation();
  const change = useChangeEmail();
  const [form, setForm] = useState({ email: '', password: '' });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate({ email: form.email, current_password: form.password }, { onSuccess: () => setForm({ email: '', password: '' }) });
  };
  return (
    <Card title={t('account.changeEmail.title')} id="change-email">
      <form onSubmit={submit} noValidate>
        <TextField
          label={t('account.changeEmail.email')}
          type="email"
          autoComplete="email"
          required
          value={form.email}
          onChange={(e) => setForm({ ...form, email: e.target.value })}
          error={fieldError(change.error, 'email')}
        />
        <TextField
          label={t('account.changeEmail.password')}
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
            {change.data.email_pending ? t('account.changeEmail.pending', { email: change.data.email_pending }) : t('account.changeEmail.noChange')}
          </p>
        ) : null}
        <button type="submit" className="primary" disabled={change.isPending}>
          {t('account.changeEmail.submit')}
        </button>
      </form>
    </Card>
  );
}

function Sessions() {
  const { t } = useTranslation();
  const info = useSessionInfo();
  const signOut = useSignOut();
  const s = info.data;
  return (
    <Card title={t('account.session.title')} id="session">
      {info.isPending ? <Loading what={t('account.session.loading')} /> : null}
      <ErrorBox error={info.error} />
      {s ? (
        <dl className="facts">
          <div className="fact">
            <dt>{t('account.session.started')}</dt>
            <dd>{utcText(s.attributes.created_unix)}</dd>
          </div>
          <div className="fact">
            <dt>{t('account.session.lastUsed')}</dt>
            <dd>{utcText(s.attributes.last_seen_unix)}</dd>
          </div>
          <div className="fact">
            <dt>{t('account.session.expires')}</dt>
            <dd>{utcText(s.active.expires_unix)}</dd>
          </div>
          <div className="fact">
            <dt>{t('account.session.cookie')}</dt>
            {/* The cookie's attributes as browsers write them: protocol words, the same in every language. */}
            {/* eslint-disable-next-line i18next/no-literal-string */}
            <dd>{`${s.cookie.name}: HttpOnly${s.cookie.secure ? ', Secure' : ''}, SameSite=${s.cookie.same_site}`}</dd>
          </div>
        </dl>
      ) : null}
      <p className="muted small">{t('account.session.passwordNote')}</p>
      <button type="button" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
        {t('account.session.signOut')}
      </button>
    </Card>
  );
}

/** Where the account is signed in: every live session, this one marked, each with its way out. */
function SignedIn() {
  const { t } = useTranslation();
  const sessions = useUserSessions();
  const end = useEndSession();
  const endOthers = useEndOtherSessions();
  const now = useNow();
  const list = sessions.data ?? [];
  const others = list.filter((s) => !s.current).length;
  return (
    <Card title={t('account.sessions.title')} id="sessions">
      {sessions.isPending ? <Loading what={t('account.sessions.loading')} /> : null}
      <ErrorBox error={sessions.error ?? end.error ?? endOthers.error} />
      {list.length > 0 ? (
        <ul className="session-list" aria-label={t('account.sessions.label')}>
          {list.map((s) => {
            const browser = describeUserAgent(s.user_agent);
            return (
              <li key={s.id} data-session={s.id} data-current={s.current || undefined}>
                <div className="session-what">
                  <span>
                    <strong>{browser}</strong> {s.current ? <span className="badge badge-ok">{t('account.sessions.thisDevice')}</span> : null}
                  </span>
                  <span className="muted small">
                    {s.ip ?? t('account.sessions.addressUnknown')} ·{' '}
                    {s.current ? t('account.sessions.inUseNow') : t('account.sessions.lastUsed', { when: relativeTime(s.last_seen_unix, now) })} ·{' '}
                    {t('account.sessions.signedIn', { when: utcText(s.created_unix) })}
                  </span>
                </div>
                <ConfirmButton
                  label={t('account.sessions.signOut')}
                  className="small"
                  confirm={s.current ? t('account.sessions.confirmThis') : t('account.sessions.confirmOther', { browser })}
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
          {t('account.sessions.ended', { count: endOthers.data.ended })}
        </p>
      ) : null}
      <ConfirmButton
        label={t('account.sessions.signOutOthers')}
        className="danger"
        confirm={t('account.sessions.confirmOthers', { count: others })}
        pending={endOthers.isPending || others === 0}
        onConfirm={() => endOthers.mutate()}
      />
    </Card>
  );
}

function ChangePassword() {
  const { t } = useTranslation();
  const change = useChangePassword();
  const [form, setForm] = useState({ current: '', next: '' });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate({ current_password: form.current, new_password: form.next }, { onSuccess: () => setForm({ current: '', next: '' }) });
  };
  return (
    <Card title={t('account.password.title')} id="password">
      <form onSubmit={submit} noValidate>
        <TextField
          label={t('account.password.current')}
          type="password"
          autoComplete="current-password"
          required
          value={form.current}
          onChange={(e) => setForm({ ...form, current: e.target.value })}
          error={fieldError(change.error, 'current_password')}
        />
        <TextField
          label={t('account.password.next')}
          hint={t('account.password.hint', { min: PASSWORD_MIN_LENGTH })}
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
            {t('account.password.changed')}
          </p>
        ) : null}
        <button type="submit" className="primary" disabled={change.isPending}>
          {t('account.password.submit')}
        </button>
      </form>
    </Card>
  );
}

function DeleteAccount() {
  const { t } = useTranslation();
  const remove = useDeleteAccount();
  const [password, setPassword] = useState('');
  const [sure, setSure] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    remove.mutate(password);
  };
  return (
    <Card title={t('account.delete.title')} id="delete-account">
      <p>{t('account.delete.text')}</p>
      <form onSubmit={submit} noValidate>
        <TextField
          label={t('account.delete.password')}
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={fieldError(remove.error, 'password')}
        />
        <label className="check">
          <input type="checkbox" checked={sure} onChange={(e) => setSure(e.target.checked)} /> {t('account.delete.sure')}
        </label>
        <ErrorBox error={remove.error} />
        <button type="submit" className="danger" disabled={!sure || !password || remove.isPending}>
          {t('account.delete.submit')}
        </button>
      </form>
    </Card>
  );
}

/** The signed-in account: profile (the address and its verification), this session, every session, address, password, deletion. */
export function AccountPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('account.title')} />
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
