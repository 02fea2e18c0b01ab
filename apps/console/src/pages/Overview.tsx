import { Link } from 'wouter';
import { useOverview } from '../hooks/devices';
import { ErrorBox, Loading, PageHeader } from '../components/ui';

function Figure({ label, value, href }: { label: string; value: number | undefined; href?: string }) {
  const body = (
    <>
      <span className="figure-value">{value ?? '–'}</span>
      <span className="figure-label">{label}</span>
    </>
  );
  return <li className="figure">{href ? <Link href={href}>{body}</Link> : <div>{body}</div>}</li>;
}

/** The account at a glance (GET /user/overview, refreshed by live events). */
export function OverviewPage() {
  const overview = useOverview();
  const o = overview.data;
  return (
    <>
      <PageHeader title="Overview" subtitle={o ? `Online means an uplink within the last ${Math.round(o.online_threshold_s / 60)} minutes.` : undefined} />
      {overview.isPending ? <Loading /> : null}
      <ErrorBox error={overview.error} />
      <ul className="figures" aria-label="Account figures">
        <Figure label="Devices" value={o?.devices.total} href="/devices" />
        <Figure label="Online" value={o?.devices.online} href="/devices?online=true" />
        <Figure label="Offline" value={o?.devices.offline} href="/devices?online=false" />
        <Figure label="Never seen" value={o?.devices.never_seen} />
        <Figure label="Uplinks in 24 h" value={o?.uplinks_24h} />
        <Figure label="Camera-trap images" value={o?.images} />
        <Figure label="Pending commands" value={o?.commands_pending} />
      </ul>
      <p className="muted">
        <Link href="/map">See every device on the map</Link>
      </p>
    </>
  );
}
