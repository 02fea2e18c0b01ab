import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import { api, fieldError } from '../api/client';
import { useRegister, useSignIn } from '../api/session';
import { TextField } from '../components/form';
import { Card, ErrorBox, Loading, PageHeader } from '../components/ui';
import { useVerifyEmail } from '../hooks/account';
import { useMutation } from '@tanstack/react-query';
import { Trans } from 'react-i18next';
import { useTranslation } from '../i18n';
import { AuthFrame } from './SignIn';

export function RegisterPage() {
  const { t } = useTranslation();
  const register = useRegister();
  const signIn = useSignIn();
  const [form, setForm] = useState({ username: '', email: '', password: '', fullname: '' });
  const set = (key: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) => setForm({ ...form, [key]: e.target.value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = { username: form.username, email: form.email, password: form.password, ...(form.fullname ? { fullname: form.fullname } : {}) };
    register.mutate(body, {
      onSuccess: () => signIn.mutate({ username: form.username, password: form.password }),
    });
  };
  const error = register.error ?? signIn.error;
  return (
    <AuthFrame title={t('auth.register.title')}>
      <form onSubmit={submit} noValidate>
        <TextField
          label={t('auth.register.username')}
          hint={t('auth.register.usernameHint')}
          autoComplete="username"
          required
          value={form.username}
          onChange={set('username')}
          error={fieldError(error, 'username')}
        />
        <TextField
          label={t('auth.register.email')}
          type="email"
          autoComplete="email"
          required
          value={form.email}
          onChange={set('email')}
          error={fieldError(error, 'email')}
        />
        <TextField
          label={t('auth.register.fullname')}
          autoComplete="name"
          value={form.fullname}
          onChange={set('fullname')}
          error={fieldError(error, 'fullname')}
        />
        <TextField
          label={t('auth.register.password')}
          hint={t('auth.register.passwordHint')}
          type="password"
          autoComplete="new-password"
          required
          value={form.password}
          onChange={set('password')}
          error={fieldError(error, 'password')}
        />
        <ErrorBox error={error} />
        <button type="submit" className="primary wide" disabled={register.isPending || signIn.isPending}>
          {t('auth.register.submit')}
        </button>
      </form>
      <p className="auth-links">
        <Link href="/sign-in">{t('auth.register.haveAccount')}</Link>
      </p>
    </AuthFrame>
  );
}

/**
 * A public page of one form that, once sent, gives way to a notice: the reset-link request and the
 * new password share it (the field, the error, the button and the way back to sign-in).
 */
function OneStepForm({
  title,
  done,
  children,
  error,
  pending,
  submitLabel,
  disabled,
  onSubmit,
}: {
  title: string;
  /** The notice shown instead of the form once the call succeeded; null before. */
  done: React.ReactNode | null;
  children: React.ReactNode;
  error: unknown;
  pending: boolean;
  submitLabel: string;
  disabled?: boolean;
  onSubmit: () => void;
}) {
  const { t } = useTranslation();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <AuthFrame title={title}>
      {done !== null ? (
        <p className="notice" role="status">
          {done}
        </p>
      ) : (
        <form onSubmit={submit} noValidate>
          {children}
          <ErrorBox error={error} />
          <button type="submit" className="primary wide" disabled={disabled || pending}>
            {submitLabel}
          </button>
        </form>
      )}
      <p className="auth-links">
        <Link href="/sign-in">{t('auth.backToSignIn')}</Link>
      </p>
    </AuthFrame>
  );
}

export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const restore = useMutation({ mutationFn: (address: string) => api.auth.restore({ email: address }) });
  return (
    <OneStepForm
      title={t('auth.forgot.title')}
      done={restore.isSuccess ? (restore.data[0] ?? t('auth.forgot.sent')) : null}
      error={restore.error}
      pending={restore.isPending}
      submitLabel={t('auth.forgot.submit')}
      onSubmit={() => restore.mutate(email)}
    >
      <TextField
        label={t('auth.forgot.email')}
        type="email"
        autoComplete="email"
        required
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={fieldError(restore.error, 'email')}
      />
    </OneStepForm>
  );
}

/** The page the reset mail links to: the token comes in the fragment, which browsers never send to the server. */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
  const [password, setPassword] = useState('');
  const reset = useMutation({ mutationFn: () => api.auth.restore({ token, password }) });
  return (
    <OneStepForm
      title={t('auth.reset.title')}
      done={reset.isSuccess ? <Trans t={t} i18nKey="auth.reset.done" components={{ signIn: <Link href="/sign-in" /> }} /> : null}
      error={reset.error}
      pending={reset.isPending}
      submitLabel={t('auth.reset.submit')}
      disabled={!token}
      onSubmit={() => reset.mutate()}
    >
      {!token ? <p className="error-box">{t('auth.reset.noToken')}</p> : null}
      <TextField
        label={t('auth.reset.password')}
        hint={t('auth.reset.passwordHint')}
        type="password"
        autoComplete="new-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={fieldError(reset.error, 'password')}
      />
    </OneStepForm>
  );
}

/**
 * The page the verification mail links to, signed in or not: it confirms the address at once with
 * the token from the fragment (which browsers never send to the server). Confirming twice is
 * harmless (the service answers the same), but it is asked once.
 */
export function VerifyEmailPage({ signedIn }: { signedIn: boolean }) {
  const { t } = useTranslation();
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
  const verify = useVerifyEmail();
  const { mutate } = verify;
  const asked = useRef(false);
  useEffect(() => {
    if (!token || asked.current) return;
    asked.current = true;
    mutate(token);
  }, [token, mutate]);
  const body = (
    <>
      {!token ? <p className="error-box">{t('auth.verify.noToken')}</p> : null}
      {verify.isPending ? <Loading what={t('auth.verify.confirming')} /> : null}
      <ErrorBox error={verify.error} />
      {verify.isSuccess ? (
        <p className="notice" role="status">
          {t('auth.verify.verified', { email: verify.data.email })}
        </p>
      ) : null}
      <p className="auth-links">
        {signedIn ? <Link href="/account">{t('auth.verify.toAccount')}</Link> : <Link href="/sign-in">{t('auth.verify.signIn')}</Link>}
      </p>
    </>
  );
  return signedIn ? (
    <>
      <PageHeader title={t('auth.verify.title')} />
      <Card>{body}</Card>
    </>
  ) : (
    <AuthFrame title={t('auth.verify.title')}>{body}</AuthFrame>
  );
}
