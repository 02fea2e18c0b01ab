import type { ReactNode } from 'react';
import { errorText } from '../api/client';

/** A page's heading and its actions. */
export function PageHeader({ title, subtitle, actions }: { title: ReactNode; subtitle?: ReactNode; actions?: ReactNode }) {
  return (
    <header className="page-header">
      <div>
        <h1>{title}</h1>
        {subtitle ? <p className="subtitle">{subtitle}</p> : null}
      </div>
      {actions ? <div className="actions">{actions}</div> : null}
    </header>
  );
}

export function ErrorBox({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p className="error-box" role="alert">
      {errorText(error)}
    </p>
  );
}

export function Loading({ what = 'Loading' }: { what?: string }) {
  return (
    <p className="muted" role="status" aria-live="polite">
      {what}…
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

/** Online/offline by the service's threshold; the word is there for screen readers and for colour-blind eyes. */
export function OnlineBadge({ online }: { online: boolean }) {
  return <span className={`badge ${online ? 'badge-ok' : 'badge-off'}`}>{online ? 'online' : 'offline'}</span>;
}

const STATUS_CLASS: Record<string, string> = {
  Created: 'badge-info',
  Scheduled: 'badge-info',
  Sent: 'badge-info',
  Acknowledged: 'badge-ok',
  Failed: 'badge-bad',
  Cancelled: 'badge-off',
};

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge ${STATUS_CLASS[status] ?? ''}`}>{status}</span>;
}

export function Card({ title, children, actions, id }: { title?: ReactNode; children: ReactNode; actions?: ReactNode; id?: string }) {
  return (
    <section className="card" aria-labelledby={id && title ? `${id}-title` : undefined} id={id}>
      {title || actions ? (
        <div className="card-head">
          {title ? <h2 id={id ? `${id}-title` : undefined}>{title}</h2> : <span />}
          {actions}
        </div>
      ) : null}
      {children}
    </section>
  );
}
