import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import { api, fieldError } from '../api/client';
import { useRegister, useSignIn } from '../api/session';
import { TextField } from '../components/form';
import { Card, ErrorBox, Loading, PageHeader } from '../components/ui';
import { useVerifyEmail } from '../hooks/account';
import { useMutation } from '@tanstack/react-query';
import { AuthFrame } from './SignIn';

export function RegisterPage() {
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
    <AuthFrame title="Create an account">
      <form onSubmit={submit} noValidate>
        <TextField
          label="Username"
          hint="3–64 letters, digits, dots, dashes or underscores"
          autoComplete="username"
          required
          value={form.username}
          onChange={set('username')}
          error={fieldError(error, 'username')}
        />
        <TextField label="E-mail" type="email" autoComplete="email" required value={form.email} onChange={set('email')} error={fieldError(error, 'email')} />
        <TextField label="Full name (optional)" autoComplete="name" value={form.fullname} onChange={set('fullname')} error={fieldError(error, 'fullname')} />
        <TextField
          label="Password"
          hint="At least 10 characters"
          type="password"
          autoComplete="new-password"
          required
          value={form.password}
          onChange={set('password')}
          error={fieldError(error, 'password')}
        />
        <ErrorBox error={error} />
        <button type="submit" className="primary wide" disabled={register.isPending || signIn.isPending}>
          Create account
        </button>
      </form>
      <p className="auth-links">
        <Link href="/sign-in">I have an account</Link>
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
        <Link href="/sign-in">Back to sign in</Link>
      </p>
    </AuthFrame>
  );
}

export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const restore = useMutation({ mutationFn: (address: string) => api.auth.restore({ email: address }) });
  return (
    <OneStepForm
      title="Reset your password"
      done={restore.isSuccess ? (restore.data[0] ?? 'If an account has this address, a reset link has been sent to it.') : null}
      error={restore.error}
      pending={restore.isPending}
      submitLabel="Send the reset link"
      onSubmit={() => restore.mutate(email)}
    >
      <TextField
        label="E-mail of the account"
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
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
  const [password, setPassword] = useState('');
  const reset = useMutation({ mutationFn: () => api.auth.restore({ token, password }) });
  return (
    <OneStepForm
      title="Choose a new password"
      done={
        reset.isSuccess ? (
          <>
            Your password is set. <Link href="/sign-in">Sign in</Link> with it.
          </>
        ) : null
      }
      error={reset.error}
      pending={reset.isPending}
      submitLabel="Set the password"
      disabled={!token}
      onSubmit={() => reset.mutate()}
    >
      {!token ? <p className="error-box">This page needs the link from the reset mail.</p> : null}
      <TextField
        label="New password"
        hint="At least 10 characters"
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
      {!token ? <p className="error-box">This page needs the link from the verification mail.</p> : null}
      {verify.isPending ? <Loading what="Confirming the address" /> : null}
      <ErrorBox error={verify.error} />
      {verify.isSuccess ? (
        <p className="notice" role="status">
          {verify.data.email} is verified: it is the account’s address, and alert mail may go to it.
        </p>
      ) : null}
      <p className="auth-links">{signedIn ? <Link href="/account">To your account</Link> : <Link href="/sign-in">Sign in</Link>}</p>
    </>
  );
  return signedIn ? (
    <>
      <PageHeader title="Verify your e-mail address" />
      <Card>{body}</Card>
    </>
  ) : (
    <AuthFrame title="Verify your e-mail address">{body}</AuthFrame>
  );
}
