import type { ReactNode } from 'react';
import { errorText } from '../api/client';
import { useTranslation } from '../i18n';

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

/** A short confirmation of what was just done ("Rule saved."), announced politely; nothing when there is none. */
export function Notice({ text }: { text: string | null | undefined }) {
  return text ? (
    <p className="notice" role="status">
      {text}
    </p>
  ) : null;
}

export function Loading({ what }: { what?: string }) {
  const { t } = useTranslation();
  return (
    <p className="muted" role="status" aria-live="polite">
      {what ?? t('common.loading')}…
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

/** Online/offline by the service's threshold; the word is there for screen readers and for colour-blind eyes. */
export function OnlineBadge({ online }: { online: boolean }) {
  const { t } = useTranslation();
  return <span className={`badge ${online ? 'badge-ok' : 'badge-off'}`}>{online ? t('common.online') : t('common.offline')}</span>;
}

type CommandStatus = 'Created' | 'Scheduled' | 'Sent' | 'Acknowledged' | 'Failed' | 'Cancelled';

const STATUS_CLASS: Record<CommandStatus, string> = {
  Created: 'badge-info',
  Scheduled: 'badge-info',
  Sent: 'badge-info',
  Acknowledged: 'badge-ok',
  Failed: 'badge-bad',
  Cancelled: 'badge-off',
};

const isKnownStatus = (status: string): status is CommandStatus => Object.hasOwn(STATUS_CLASS, status);

/** A command's state: the known ones in the console's language, any other as the service names it. */
export function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  const known = isKnownStatus(status);
  return <span className={`badge ${known ? STATUS_CLASS[status] : ''}`}>{known ? t(`common.commandStatus.${status}`) : status}</span>;
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
