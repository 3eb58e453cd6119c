import { networkOfNmi } from '@vpp/shared/customers/networks';
import type { Database } from '../../db/database.ts';
import { nowS } from '../../db/database.ts';
import { plansOfNetwork } from '../plans/index.ts';
import { LATEST_AGREEMENT } from './customers.capabilities.ts';
import { insertEnrolments, nodesWithTheirFleets } from './customers.repo.ts';
import { localDate } from './customers.service.ts';

/** A number in [0, 1) from a node id and a salt, the same on every start (the demo is deterministic). */
function unit(id: number, salt: number): number {
  let x = (id * 2654435761 + salt * 40503) >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 2246822507) >>> 0;
  x ^= x >>> 13;
  return (x >>> 0) / 4294967296;
}

const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * The demo's customers, as the simulated fleet's nodes join it: with each organisation of the
 * node's fleet, most homes signed the customer agreement when commissioned (some later took up
 * version 2, a few withdrew, and about one in twelve never signed: those hold no capability and the
 * customer list warns about them); the retailer's customers are on one of its plans for their
 * network from the later of their commissioning and the plan's start.
 */
export async function enrolDemoCustomers(db: Database, nodeIds: readonly number[], now = nowS()) {
  for (let i = 0; i < nodeIds.length; i += 500) {
    const ids = nodeIds.slice(i, i + 500);
    const rows = await nodesWithTheirFleets(db, ids);
    const today = localDate(now, 'Australia/Sydney');
    const agreements: { organisation_id: number; node_id: number; version: number; signed_date: string; ended_date: string | null }[] = [];
    const plans: { organisation_id: number; node_id: number; plan_id: number; start_date: string; end_date: null }[] = [];
    const planCache = new Map<string, { id: number; first_start: string | null }[]>();
    for (const r of rows) {
      const commissioned = r.commissioned_at === null ? null : localDate(Number(r.commissioned_at), r.timezone);
      const since = commissioned ?? localDate(Number(r.created_at), r.timezone);
      if (unit(r.id, 1) >= 0.085) {
        const signed = addDays(since, Math.floor(unit(r.id, 2) * 10));
        const upgraded = unit(r.id, 3) < 0.45 ? addDays(signed, 30 + Math.floor(unit(r.id, 4) * 400)) : null;
        const withdrawn = unit(r.id, 5) < 0.04 ? addDays(upgraded ?? signed, 20 + Math.floor(unit(r.id, 6) * 200)) : null;
        const pick = (d: string | null) => (d !== null && d < today ? d : null);
        const up = pick(upgraded);
        const out = pick(withdrawn);
        if (signed < today) {
          agreements.push({ organisation_id: r.organisation_id, node_id: r.id, version: 1, signed_date: signed, ended_date: up ?? out });
          if (up)
            agreements.push({
              organisation_id: r.organisation_id,
              node_id: r.id,
              version: LATEST_AGREEMENT,
              signed_date: up,
              ended_date: out && out > up ? out : null,
            });
        }
      }
      if (r.suborg_type !== 'RETAILER') continue;
      const network = networkOfNmi(r.nmi, r.state);
      if (!network) continue;
      const key = `${r.organisation_id}|${network.uid}`;
      let options = planCache.get(key);
      if (!options) {
        options = await plansOfNetwork(db, r.organisation_id, network.uid);
        planCache.set(key, options);
      }
      if (!options.length) continue;
      const plan = options[Math.floor(unit(r.id, 7) * options.length)];
      const start = plan.first_start && plan.first_start > since ? plan.first_start : since;
      plans.push({ organisation_id: r.organisation_id, node_id: r.id, plan_id: plan.id, start_date: start, end_date: null });
    }
    await insertEnrolments(db, agreements, plans);
  }
}
