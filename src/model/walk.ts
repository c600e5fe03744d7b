// The hosts and streamed logs of a bundle, in one order, for every layer that walks them.
import { sourceHost } from './source-id.js';
import type { Bundle, Host, HostRole, HostSelector, LogSummary } from './types.js';
import { pushAll } from '../util/arrays.js';

/** The bootstrap host, then the masters; only the given roles when asked. */
export function bundleHosts(bundle: Bundle, roles?: readonly HostRole[]): Host[] {
  const all = bundle.bootstrap ? [bundle.bootstrap, ...bundle.masters] : [...bundle.masters];
  return roles ? all.filter((h) => roles.includes(h.role)) : all;
}

/** The host's selector, as the layout names hosts. */
export function hostSelector(h: Host): HostSelector {
  return h.role === 'bootstrap' ? { role: 'bootstrap' } : { role: 'master', address: h.address };
}

/** `bootstrap`, or the master's address: how findings and reports name a host. */
export function hostName(h: Host): string {
  return h.role === 'bootstrap' ? 'bootstrap' : h.address;
}

/** Every streamed log of a bundle: each host's journals, unit-status journals and container logs, then the rest. */
export function bundleLogs(bundle: Bundle): LogSummary[] {
  const out: LogSummary[] = [];
  for (const h of bundleHosts(bundle)) {
    pushAll(out, Object.values(h.journals), Object.values(h.unitJournals), h.controlPlaneLogs);
    for (const c of h.containers) if (c.log) out.push(c.log);
  }
  pushAll(out, bundle.serialLogs, bundle.clusterApiLogs);
  if (bundle.gatherLog) out.push(bundle.gatherLog);
  if (bundle.installerLog) out.push(bundle.installerLog);
  return out;
}

/** How a log's host is named in evidence. */
export function logHost(log: LogSummary): string {
  return sourceHost(log.sourceId);
}
