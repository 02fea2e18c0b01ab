import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useSearch } from 'wouter';
import { api, fieldError } from '../api/client';
import { useSignIn } from '../api/session';
import { TextField } from '../components/form';
import { ErrorBox } from '../components/ui';
import { useTranslation } from '../i18n';

/** Where to go after signing in: only a path of the console itself (no open redirect). */
export function safeNext(search: string): string {
  const next = new URLSearchParams(search).get('next') ?? '/';
  return next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

export function AuthFrame({ title, children }: { title: string; children: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <main id="main" className="auth-page">
      <div className="auth-card">
        <p className="brand-line">{t('shell.brand')}</p>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}

export function SignInPage() {
  const { t } = useTranslation();
  const search = useSearch();
  const signIn = useSignIn();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const expired = new URLSearchParams(search).get('expired') === '1';
  const deleted = new URLSearchParams(search).get('deleted') === '1';
  // Why a single sign-on came back refused (the service sends the browser here with it).
  const ssoError = new URLSearchParams(search).get('sso_error');
  const providers = useQuery({ queryKey: ['oidc-providers'], queryFn: () => api.auth.oidcProviders(), staleTime: Infinity });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Signed in, the shell leaves the public pages for `next` (App's AfterSignIn).
    signIn.mutate({ username, password });
  };
  return (
    <AuthFrame title={t('auth.signIn.title')}>
      {expired ? (
        <p className="notice" role="status">
          {t('auth.signIn.expired')}
        </p>
      ) : null}
      {deleted ? (
        <p className="notice" role="status">
          {t('auth.signIn.deleted')}
        </p>
      ) : null}
      <form onSubmit={submit} noValidate>
        <TextField
          label={t('auth.signIn.username')}
          name="username"
          autoComplete="username"
          required
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          error={fieldError(signIn.error, 'username')}
        />
        <TextField
          label={t('auth.signIn.password')}
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={fieldError(signIn.error, 'password')}
        />
        <ErrorBox error={signIn.error} />
        <button type="submit" className="primary wide" disabled={signIn.isPending}>
          {signIn.isPending ? t('auth.signIn.submitting') : t('auth.signIn.submit')}
        </button>
      </form>
      {ssoError ? (
        <p className="error-box" role="alert">
          {ssoError}
        </p>
      ) : null}
      {providers.data && providers.data.length > 0 ? (
        <div className="sso" role="group" aria-label={t('auth.signIn.sso')}>
          {providers.data.map((p) => (
            <a
              key={p.id}
              className="button wide"
              href={`/auth/oidc/${encodeURIComponent(p.id)}/start?next=${encodeURIComponent(`/console${safeNext(search)}`)}`}
            >
              {t('auth.signIn.withProvider', { name: p.name })}
            </a>
          ))}
        </div>
      ) : null}
      <p className="auth-links">
        <Link href="/forgot-password">{t('auth.signIn.forgot')}</Link>
        <Link href="/register">{t('auth.signIn.register')}</Link>
      </p>
    </AuthFrame>
  );
}
