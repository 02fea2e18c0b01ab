import { useQueryClient } from '@tanstack/react-query';
import { LogOut, Menu, Radio, X } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { Link, useLocation } from 'wouter';
import type { LiveState } from '../api/live';
import { ActiveAlertsIndicator } from '../components/ActiveAlerts';
import { LanguageSwitcher } from '../components/LanguageSwitcher';
import { useTranslation } from '../i18n';
import { switchOrganisation, useActingOrganisation, useActingRole, useOrganisations } from '../api/organisation';
import { useSession, useSignOut } from '../api/session';
import { isCurrent, NAV, navSections, shownTo } from './nav';

/**
 * The signed-in shell: a skip link, one header row (the menu button on a narrow screen, the live
 * state, where the console acts, sign out) and the side menu by sections — beside the page on a
 * laptop, a drawer the menu button opens on a phone.
 */
export function Layout({ live, children }: { live: LiveState; children: ReactNode }) {
  const [location] = useLocation();
  const me = useSession().data;
  const signOut = useSignOut();
  const role = useActingRole();
  const { t } = useTranslation();
  const [menuOpen, setMenuOpen] = useState(false);
  const sections = navSections(NAV.filter((item) => shownTo(item, { admin: me?.groupid === 1, role })));
  // A page opened from the drawer closes it, as does Escape.
  useEffect(() => setMenuOpen(false), [location]);
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setMenuOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [menuOpen]);
  return (
    <div className={menuOpen ? 'shell menu-open' : 'shell'}>
      <a className="skip-link" href="#main">
        {t('shell.skipLink')}
      </a>
      <header className="topbar">
        <button type="button" className="ghost menu-button" aria-expanded={menuOpen} aria-controls="main-menu" onClick={() => setMenuOpen((open) => !open)}>
          {menuOpen ? <X aria-hidden size={20} /> : <Menu aria-hidden size={20} />}
          <span className="sr-only">{t('shell.menu')}</span>
        </button>
        <Link href="/" className="brand">
          <Radio aria-hidden size={20} /> <span className="brand-name">{t('shell.brand')}</span>
        </Link>
        <div className="topbar-end">
          <ActiveAlertsIndicator />
          <span className={`live-state live-${live}`} role="status" aria-live="polite" data-live={live}>
            <span className="dot" aria-hidden /> <span className="live-text">{t(`shell.live.${live}`)}</span>
          </span>
          <OrganisationSwitcher username={me?.username ?? ''} />
          <span className="user" title={t('shell.signedInAs')}>
            {me?.username}
          </span>
          <button type="button" className="ghost sign-out" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
            <LogOut aria-hidden size={16} /> <span className="sign-out-text">{t('shell.signOut')}</span>
          </button>
        </div>
      </header>
      <div className="frame">
        <nav aria-label={t('shell.mainMenu')} className="nav" id="main-menu">
          {sections.map((section) => (
            <div key={section.id} className="nav-section">
              <span className="nav-section-title" id={`nav-${section.id}`}>
                {t(`shell.groups.${section.id}`)}
              </span>
              <ul aria-labelledby={`nav-${section.id}`}>
                {section.items.map((item) => {
                  const current = isCurrent(item, location);
                  const Icon = item.icon;
                  return (
                    <li key={item.path}>
                      <Link href={item.path} aria-current={current ? 'page' : undefined} className={current ? 'active' : undefined}>
                        <Icon aria-hidden size={18} />
                        <span>{t(`shell.nav.${item.label}`)}</span>
                      </Link>
                    </li>
                  );
                })}
              </ul>
            </div>
          ))}
          <LanguageSwitcher />
        </nav>
        {menuOpen ? <button type="button" className="menu-scrim" tabIndex={-1} aria-hidden onClick={() => setMenuOpen(false)} /> : null}
        <main id="main" tabIndex={-1}>
          {children}
        </main>
      </div>
    </div>
  );
}

/**
 * Where the console acts: the person's own account or one of their organisations (shown once they
 * belong to one). An organisation the person no longer belongs to is left for their own account.
 */
function OrganisationSwitcher({ username }: { username: string }) {
  const { t } = useTranslation();
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
      <span className="sr-only">{t('shell.actIn')}</span>
      <select
        value={acting ?? ''}
        onChange={(e) => {
          switchOrganisation(client, e.target.value === '' ? null : e.target.value);
          navigate('/');
        }}
      >
        <option value="">{t('shell.personal', { name: username })}</option>
        {organisations.map((o) => (
          <option key={o.id} value={o.name}>
            {t('shell.organisationRole', { name: o.name, role: o.role })}
          </option>
        ))}
      </select>
    </label>
  );
}
