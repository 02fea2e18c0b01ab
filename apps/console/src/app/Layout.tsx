import { LogOut, Radio } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import type { LiveState } from '../api/live';
import { useSession, useSignOut } from '../api/session';
import { isCurrent, NAV } from './nav';

const LIVE_TEXT: Record<LiveState, string> = { connecting: 'Connecting…', live: 'Live', reconnecting: 'Reconnecting…', closed: 'Offline' };

/** The signed-in shell: a skip link, the menu (a bar on a phone), the live state, sign out. */
export function Layout({ live, children }: { live: LiveState; children: ReactNode }) {
  const [location] = useLocation();
  const me = useSession().data;
  const signOut = useSignOut();
  const items = NAV.filter((item) => !item.admin || me?.groupid === 1);
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
