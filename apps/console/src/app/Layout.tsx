import { useQueryClient } from '@tanstack/react-query';
import { LogOut, Radio } from 'lucide-react';
import { type ReactNode, useEffect } from 'react';
import { Link, useLocation } from 'wouter';
import type { LiveState } from '../api/live';
import { switchOrganisation, useActingOrganisation, useActingRole, useOrganisations } from '../api/organisation';
import { useSession, useSignOut } from '../api/session';
import { isCurrent, NAV, shownTo } from './nav';

const LIVE_TEXT: Record<LiveState, string> = { connecting: 'Connecting…', live: 'Live', reconnecting: 'Reconnecting…', closed: 'Offline' };

/** The signed-in shell: a skip link, the menu (a bar on a phone), the live state, sign out. */
export function Layout({ live, children }: { live: LiveState; children: ReactNode }) {
  const [location] = useLocation();
  const me = useSession().data;
  const signOut = useSignOut();
  const role = useActingRole();
  const items = NAV.filter((item) => shownTo(item, { admin: me?.groupid === 1, role }));
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link href="/" className="brand">
          <Radio aria-hidden size={20} /> Device Telemetry
        </Link>
        <nav aria-label="Main" className="nav">
          <ul>
            {items.map((item) => {
              const current = isCurrent(item, location);
              const Icon = item.icon;
              return (
                <li key={item.path}>
                  <Link href={item.path} aria-current={current ? 'page' : undefined} className={current ? 'active' : undefined}>
                    <Icon aria-hidden size={18} />
                    <span>{item.label}</span>
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
        <div className="topbar-end">
          <span className={`live-state live-${live}`} role="status" aria-live="polite" data-live={live}>
            <span className="dot" aria-hidden /> {LIVE_TEXT[live]}
          </span>
          <OrganisationSwitcher username={me?.username ?? ''} />
          <span className="user" title="Signed in as">
            {me?.username}
          </span>
          <button type="button" className="ghost" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
            <LogOut aria-hidden size={16} /> Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}

/**
 * Where the console acts: the person's own account or one of their organisations (shown once they
 * belong to one). An organisation the person no longer belongs to is left for their own account.
 */
function OrganisationSwitcher({ username }: { username: string }) {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const acting = useActingOrganisation();
  const organisations = useOrganisations().data;
  const gone = acting !== null && organisations !== undefined && !organisations.some((o) => o.name.toLowerCase() === acting.toLowerCase());
  useEffect(() => {
    if (gone) switchOrganisation(client, null);
  }, [gone, client]);
  if (!organisations || (organisations.length === 0 && acting === null)) return null;
  return (
    <label className="org-switcher">
      <span className="sr-only">Act in</span>
      <select
        value={acting ?? ''}
        onChange={(e) => {
          switchOrganisation(client, e.target.value === '' ? null : e.target.value);
          navigate('/');
        }}
      >
        <option value="">{username} (personal)</option>
        {organisations.map((o) => (
          <option key={o.id} value={o.name}>
            {o.name} ({o.role})
          </option>
        ))}
      </select>
    </label>
  );
}
