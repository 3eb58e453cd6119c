import type { ConnectivityChange, FleetReports, UnitContact } from '../../devices/index.ts';
import type { AppContext } from '../../platform/context.ts';
import { insertNodeEvents, setConnectionOffline, setLastContact } from './nodes.repo.ts';
import { indexNodes } from './nodes.search.repo.ts';
import { notifyNodeStatus } from './nodes.service.ts';

/**
 * What the console does with the fleet's reports: a unit that stops reporting or comes back gets
 * an event in its log and (when it happens live) a notification to every fleet holding it; each
 * report updates the units' last contact and status.
 */
export function nodeReports(ctx: AppContext, onError: (err: unknown) => void = () => undefined): FleetReports {
  return {
    // A unit that joins is found by the fleet search from then on.
    joined: (nodeIds) => indexNodes(ctx.db, nodeIds),

    async connectivity(changes: readonly ConnectivityChange[], db = ctx.db) {
      if (!changes.length) return;
      await insertNodeEvents(
        db,
        changes.map((c) =>
          c.online
            ? {
                node_id: c.nodeId,
                ts: c.ts,
                event_type: 'NODE_ONLINE',
                description: 'The Reposit unit is reporting again.',
                duration: c.offlineFrom !== null ? c.ts - c.offlineFrom : null,
              }
            : { node_id: c.nodeId, ts: c.ts, event_type: 'NODE_OFFLINE', description: 'The Reposit unit stopped reporting.', duration: null },
        ),
      );
      // Notifications must not hold up the report that brought the news. (Sent from inside a
      // report that then fails, one may be sent again when the report is.)
      for (const c of changes) void notifyNodeStatus(ctx, c).catch(onError);
    },

    async contacts(units: readonly UnitContact[], db = ctx.db) {
      const byContact = new Map<number, number[]>();
      for (const u of units) {
        if (u.lastContact === undefined) continue;
        const ids = byContact.get(u.lastContact);
        if (ids) ids.push(u.nodeId);
        else byContact.set(u.lastContact, [u.nodeId]);
      }
      for (const [ts, ids] of byContact) await setLastContact(db, ids, ts);
      const online = units.filter((u) => u.online === true).map((u) => u.nodeId);
      const offline = units.filter((u) => u.online === false).map((u) => u.nodeId);
      await setConnectionOffline(db, online, false);
      await setConnectionOffline(db, offline, true);
    },
  };
}
