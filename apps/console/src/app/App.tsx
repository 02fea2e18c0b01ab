import { lazy, Suspense, useEffect, useRef } from 'react';
import { Redirect, Route, Router, Switch, useLocation, useSearch } from 'wouter';
import { GROUP_ADMIN } from '@dts/domain';
import { useLiveFeed } from '../api/live';
import { useSession } from '../api/session';
import { ErrorBox, Loading } from '../components/ui';
import { ForgotPasswordPage, RegisterPage, ResetPasswordPage, VerifyEmailPage } from '../pages/AccountPages';
import { safeNext, SignInPage } from '../pages/SignIn';
import { useTranslation } from '../i18n';
import { Layout } from './Layout';

// The pages behind a map or a chart load with them: the sign-in page stays small.
// The overview draws every device on a map: it loads with Leaflet, after signing in.
const OverviewPage = lazy(() => import('../pages/Overview').then((m) => ({ default: m.OverviewPage })));
const DevicesPage = lazy(() => import('../pages/Devices').then((m) => ({ default: m.DevicesPage })));
const DevicePage = lazy(() => import('../pages/device/DevicePage').then((m) => ({ default: m.DevicePage })));
const MapPage = lazy(() => import('../pages/MapOverview').then((m) => ({ default: m.MapOverviewPage })));
const GalleryPage = lazy(() => import('../pages/camera-traps/Gallery').then((m) => ({ default: m.GalleryPage })));
const PhotoPage = lazy(() => import('../pages/camera-traps/PhotoPage').then((m) => ({ default: m.PhotoPage })));
const FencesPage = lazy(() => import('../pages/Fences').then((m) => ({ default: m.FencesPage })));
const TokensPage = lazy(() => import('../pages/Tokens').then((m) => ({ default: m.TokensPage })));
const AccountPage = lazy(() => import('../pages/Account').then((m) => ({ default: m.AccountPage })));
const AdminPage = lazy(() => import('../pages/Admin').then((m) => ({ default: m.AdminPage })));
const CodecsPage = lazy(() => import('../pages/codecs/CodecsPage').then((m) => ({ default: m.CodecsPage })));
const CodecEditorPage = lazy(() => import('../pages/codecs/CodecEditorPage').then((m) => ({ default: m.CodecEditorPage })));
const OrganisationsPage = lazy(() => import('../pages/Organisations').then((m) => ({ default: m.OrganisationsPage })));
const OrganisationPage = lazy(() => import('../pages/Organisations').then((m) => ({ default: m.OrganisationPage })));
const ImportDevicesPage = lazy(() => import('../pages/ImportDevices').then((m) => ({ default: m.ImportDevicesPage })));
const NetworksPage = lazy(() => import('../pages/networks/NetworksPage').then((m) => ({ default: m.NetworksPage })));
const RulesPage = lazy(() => import('../pages/automation/RulesPage').then((m) => ({ default: m.RulesPage })));
const AlertsPage = lazy(() => import('../pages/automation/AlertsPage').then((m) => ({ default: m.AlertsPage })));
const IntegrationsPage = lazy(() => import('../pages/automation/IntegrationsPage').then((m) => ({ default: m.IntegrationsPage })));
const GatewaysPage = lazy(() => import('../pages/Gateways').then((m) => ({ default: m.GatewaysPage })));
const DashboardsPage = lazy(() => import('../pages/dashboards/DashboardsPage').then((m) => ({ default: m.DashboardsPage })));
const DashboardPage = lazy(() => import('../pages/dashboards/DashboardPage').then((m) => ({ default: m.DashboardPage })));

const PUBLIC = ['/sign-in', '/register', '/forgot-password', '/reset-password'];
/** Pages for anyone, signed in or not: the verification mail's link works in either state. */
const OPEN = ['/verify-email'];

/** A public page while signed in (just signed in, or opened again): on to where the person was going. */
function AfterSignIn() {
  const search = useSearch();
  return <Redirect to={safeNext(search)} replace />;
}

function SignedIn() {
  const live = useLiveFeed(true);
  // Administrators only: for anyone else the route does not exist (and the service answers 403 besides).
  const admin = useSession().data?.groupid === GROUP_ADMIN;
  return (
    <Layout live={live}>
      <Suspense fallback={<Loading />}>
        <Switch>
          <Route path="/" component={OverviewPage} />
          <Route path="/devices" component={DevicesPage} />
          <Route path="/devices/:eui/:tab?">{(params) => <DevicePage eui={params.eui} tab={params.tab ?? 'live'} />}</Route>
          <Route path="/map" component={MapPage} />
          <Route path="/camera-traps" component={GalleryPage} />
          <Route path="/camera-traps/:eui/:hash">{(params) => <PhotoPage eui={params.eui} hash={params.hash} />}</Route>
          <Route path="/fences" component={FencesPage} />
          <Route path="/tokens" component={TokensPage} />
          <Route path="/account" component={AccountPage} />
          <Route path="/organisations" component={OrganisationsPage} />
          <Route path="/organisations/:id">{(params) => <OrganisationPage id={params.id} />}</Route>
          {admin ? <Route path="/admin" component={AdminPage} /> : null}
          <Route path="/codecs" component={CodecsPage} />
          <Route path="/codecs/:uid">{(params) => <CodecEditorPage uid={params.uid} />}</Route>
          <Route path="/import" component={ImportDevicesPage} />
          <Route path="/networks" component={NetworksPage} />
          <Route path="/gateways" component={GatewaysPage} />
          <Route path="/dashboards" component={DashboardsPage} />
          <Route path="/dashboards/:uid">{(params) => <DashboardPage uid={params.uid} />}</Route>
          <Route path="/rules" component={RulesPage} />
          <Route path="/alerts" component={AlertsPage} />
          <Route path="/integrations" component={IntegrationsPage} />
          <Route path="/verify-email">
            <VerifyEmailPage signedIn />
          </Route>
          {PUBLIC.map((path) => (
            <Route key={path} path={path}>
              <AfterSignIn />
            </Route>
          ))}
          <Route>
            <NotFound />
          </Route>
        </Switch>
      </Suspense>
    </Layout>
  );
}

function NotFound() {
  const { t } = useTranslation();
  return (
    <section className="card">
      <h1>{t('shell.notFound.title')}</h1>
      <p>{t('shell.notFound.text')}</p>
    </section>
  );
}

function SignedOut({ expired }: { expired: boolean }) {
  const [location] = useLocation();
  const search = useSearch();
  if (!PUBLIC.includes(location) && !OPEN.includes(location)) {
    // Back where you were after signing in (the path and its query).
    const next = encodeURIComponent(`${location}${search ? `?${search}` : ''}`);
    return <Redirect to={`/sign-in?next=${next}${expired ? '&expired=1' : ''}`} replace />;
  }
  return (
    <Switch>
      <Route path="/sign-in" component={SignInPage} />
      <Route path="/register" component={RegisterPage} />
      <Route path="/forgot-password" component={ForgotPasswordPage} />
      <Route path="/reset-password" component={ResetPasswordPage} />
      <Route path="/verify-email">
        <VerifyEmailPage signedIn={false} />
      </Route>
    </Switch>
  );
}

function Shell() {
  const { t } = useTranslation();
  const session = useSession();
  const wasSignedIn = useRef(false);
  useEffect(() => {
    if (session.data) wasSignedIn.current = true;
  }, [session.data]);
  if (session.isPending) return <Loading what={t('shell.starting')} />;
  if (session.isError && session.data === undefined) return <ErrorBox error={session.error} />;
  return session.data ? <SignedIn /> : <SignedOut expired={wasSignedIn.current} />;
}

export function App() {
  return (
    <Router base="/console">
      <Shell />
    </Router>
  );
}
