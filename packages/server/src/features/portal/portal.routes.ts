import { portalEndpoints as E } from '@vpp/shared/portal/endpoints';
import { caller } from '../../platform/guard.ts';
import { type App, route } from '../../platform/http.ts';
import { latestReading, nodeSite } from '../nodes/index.ts';
import { issuePortalToken, portalUrl, redeemPortalToken } from './portal.service.ts';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function portalRoutes(app: App) {
  route(app, E.token, async (req) => ({
    status: 'OK' as const,
    message: 'Portal access granted.',
    inverterPortalToken: await issuePortalToken(app.ctx, caller(req), req.query.deployment, req.query.inverter),
    portalUrl: portalUrl(app.ctx),
  }));

  route(app, E.page, async (req, reply) => {
    reply.type('text/html').header('cache-control', 'no-store');
    const grant = await redeemPortalToken(app.ctx, req.query.token);
    if (!grant)
      return reply
        .code(403)
        .send('<!doctype html><title>Inverter portal</title><p>This portal link has expired or was already used. Open the portal again from the console.</p>');
    const node = await nodeSite(app.ctx.db, grant.nodeId);
    const latest = await latestReading(app.ctx.db, grant.nodeId);
    const inverter = node?.system.energySystems.find((e) => e.inverter.id === grant.inverterId)?.inverter;
    const kw = (v: number | null | undefined) => (v === null || v === undefined ? '–' : `${v.toFixed(2)} kW`);
    const rows = latest
      ? [
          ['Solar', kw(latest.solar_p)],
          ['Battery (positive is charging)', kw(latest.battery_p)],
          ['Grid (positive is import)', kw(latest.meter_p)],
          ['House', kw(latest.house_p)],
          ['State of charge', latest.soc === null ? '–' : `${latest.soc.toFixed(1)} %`],
          ['Voltage', latest.voltage === null ? '–' : `${latest.voltage.toFixed(1)} V`],
        ]
      : [];
    const when = latest ? new Date(latest.ts * 1000).toLocaleString('en-AU', { timeZone: node?.timezone }) : 'no readings yet';
    return `<!doctype html><html lang="en-AU"><head><meta charset="utf-8"><title>${escapeHtml(inverter?.name ?? 'Inverter')} portal</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;color:#212529}table{border-collapse:collapse}td{padding:.4rem 1rem;border-bottom:1px solid #dee2e6}</style></head>
<body><h1>${escapeHtml(inverter?.name ?? 'Inverter')}</h1><p>${node ? escapeHtml(`${node.street}, ${node.suburb} ${node.state}`) : ''}</p>
<p>Live readings at ${escapeHtml(when)}</p><table>${rows.map(([k, v]) => `<tr><td>${escapeHtml(k)}</td><td>${escapeHtml(v)}</td></tr>`).join('')}</table></body></html>`;
  });
}
