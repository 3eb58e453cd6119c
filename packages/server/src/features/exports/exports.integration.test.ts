import fs from 'node:fs';
import path from 'node:path';
import { EXPORT_MESSAGES as M } from '@vpp/shared/exports/messages';
import type { ExportJobDetail } from '@vpp/shared/exports/schemas';
import { MESSAGES } from '@vpp/shared/messages';
import { PERMISSIONS } from '@vpp/shared/permissions/registry';
import { endOfPeriod, localDateToEpoch, shiftPeriod, startOfPeriod } from '@vpp/shared/time';
import { parse } from 'csv-parse/sync';
import { beforeAll, expect, it } from 'vitest';
import { databaseSource, nowS } from '../../db/database.ts';
import { armCrashPoint } from '../../platform/crash-points.ts';
import { signDownload } from '../../platform/downloads.ts';
import { streamingTasks } from '../../platform/run-in-worker.ts';
import { seedFleet } from '../../test/fleet.ts';
import { describeEachDatabase, PASSWORD } from '../../test/harness.ts';
import { runJobs } from '../../test/outbox.ts';
import { type OperationalPlan, writeOperational } from './exports.operational.service.ts';
import { exportJob, runExport, sweepExports } from './exports.service.ts';

type Headers = { authorization: string };
const ZONE = 'Australia/Sydney';
const ALL = PERMISSIONS.map((p) => p.name);
const WITHOUT_EDIT = ALL.filter((p) => p !== 'fleet.administrator' && p !== 'fleet.analysis.export.edit');

// Small pages (a few hours of the test fleet each) so that every export runs through many of them.
describeEachDatabase(
  'data exports',
  (h) => {
    let org: number;
    let admin: Headers;
    let viewer: Headers;
    let outsider: Headers;
    let nodes: number[];
    let theirNodes: number[];
    let vpp: number;
    let theirVpp: number;
    let start: number;
    let end: number;
    let submeters: { id: number; node_id: number }[];
    let zones: Map<number, string>;

    const get = (url: string, headers: Headers | undefined = admin) => h().app.inject({ method: 'GET', url, headers });
    const post = (url: string, payload: unknown, headers: Headers = admin) => h().app.inject({ method: 'POST', url, payload: payload as object, headers });
    const counts = async () => ({
      exports: Number(
        (
          await h()
            .ctx.db.selectFrom('export_jobs')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
      jobs: Number(
        (
          await h()
            .ctx.db.selectFrom('jobs')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('kind', '=', 'exports.run')
            .executeTakeFirstOrThrow()
        ).n,
      ),
    });

    /** Queues an export, runs the worker, and answers its detail (SUCCESS expected). */
    async function exported(body: unknown, headers = admin): Promise<ExportJobDetail> {
      const res = await post('/analysis/export-jobs', body, headers);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({ status: 'PENDING', progress: 0, time_remaining: null });
      await runJobs(h().ctx, [exportJob]);
      const detail = await get(`/analysis/export-jobs/${res.json().data.task_id}`, headers);
      expect(detail.statusCode, detail.body).toBe(200);
      return detail.json().data;
    }
    /** A file of a finished export, read through its signed URL and parsed. */
    async function csv(detail: ExportJobDetail, metric: string): Promise<Record<string, string>[]> {
      const file = detail.details.signed_urls.find((f) => f.metric === metric);
      expect(file?.signed_url, `${metric} has a file`).toBeTruthy();
      const res = await h().app.inject({ method: 'GET', url: file?.signed_url as string });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toContain('text/csv');
      expect(Buffer.byteLength(res.body)).toBe(file?.size);
      return parse(res.body, { columns: true });
    }
    const series = async (node: number, metrics: string, interval: number) => {
      const res = await get(`/api/nodes/${node}/data?metrics=${metrics}&start=${start}&end=${end}&interval=${interval}&fill=null`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().series as Record<string, Record<string, number | null>>;
    };
    const cell = (v: number | null | undefined) => (v === null || v === undefined ? '' : String(v));
    const operational = (params: Record<string, unknown>) => ({
      type: 'operational',
      params: { start, end, queries: ['meter_power'], interval: '5m', ...params },
    });

    /** The rounded sum of a row's node columns (blank when all are), as Aggregate by VPP writes it. */
    const sumOfNodes = (r: Record<string, string>) => {
      const values = Object.values(r)
        .slice(2)
        .filter((v) => v !== '')
        .map(Number);
      return values.length ? String(Math.round(values.reduce((a, v) => a + v, 0) * 1000) / 1000) : '';
    };
    /** Whether a zone's local hours start when Sydney's do (Brisbane's do; Adelaide's and Darwin's at half past). */
    const hoursAligned = (zone: string) => startOfPeriod(start, 'day', zone) % 3600 === start % 3600;
    const localHour = (t: number) => new Intl.DateTimeFormat('en-AU', { timeZone: ZONE, hour: '2-digit', hourCycle: 'h23' }).format(new Date(t * 1000));
    /** Each hourly cell is the mean of the node's 5-minute values in that hour (rounded: within 0.005). */
    const expectHourlyMeans = (column: string[], rows: Record<string, string>[], five: Record<string, Record<string, number | null>>, api: string) => {
      for (const [k, r] of rows.entries()) {
        const values = Array.from({ length: 12 }, (_, i) => five[Number(r.ts) + i * 300]?.[api]).filter((v): v is number => v !== null && v !== undefined);
        if (!values.length) expect(column[k]).toBe('');
        else expect(Number(column[k])).toBeCloseTo(values.reduce((a, v) => a + v, 0) / values.length, 2);
      }
    };

    beforeAll(async () => {
      org = await h().org('RETAILER', 'Sunrise Energy');
      const other = await h().org('RETAILER', 'Other Power');
      const fleet = await seedFleet(h(), { retailer: org, count: 6, seed: 31 }, [{ retailer: other, count: 2, seed: 32 }], 2);
      admin = await h().bearer((await h().user(org, { permissions: ALL })).username);
      viewer = await h().bearer((await h().user(org, { permissions: WITHOUT_EDIT })).username);
      outsider = await h().bearer((await h().user(other, { permissions: ALL })).username);
      const members = (o: number) =>
        h()
          .ctx.db.selectFrom('fleet_members')
          .select('node_id')
          .where('organisation_id', '=', o)
          .orderBy('node_id')
          .execute()
          .then((rs) => rs.map((r) => r.node_id));
      nodes = await members(org);
      theirNodes = await members(other);
      vpp = (await post('/api/powerstations', { type: 'STATIC', name: 'Harbour VPP', nodes })).json().data.id;
      theirVpp = (await post('/api/powerstations', { type: 'STATIC', name: 'Their VPP', nodes: theirNodes }, outsider)).json().data.id;
      // One whole local day inside the simulated history.
      start = startOfPeriod(fleet.from + 86400, 'day', ZONE);
      end = endOfPeriod(start, 'day', ZONE);
      // A home in Sydney beside Adelaide, Darwin, Brisbane, Melbourne and Hobart: the first Melbourne one
      // moves (the same clock all year, so its history stands as it is).
      const melbourne = await h()
        .ctx.db.selectFrom('nodes')
        .select('id')
        .where('id', 'in', nodes)
        .where('timezone', '=', 'Australia/Melbourne')
        .orderBy('id')
        .executeTakeFirst();
      if (melbourne) await h().ctx.db.updateTable('nodes').set({ timezone: ZONE }).where('id', '=', melbourne.id).execute();
      zones = new Map(
        (await h().ctx.db.selectFrom('nodes').select(['id', 'timezone']).where('id', 'in', nodes).execute()).map((n) => [n.id, n.timezone as string]),
      );
      submeters = await h().ctx.db.selectFrom('submeters').select(['id', 'node_id']).where('node_id', 'in', nodes).orderBy('id').execute();
      // The last node's meter sent no frequency on the exported day (its other readings stand).
      await h()
        .ctx.db.updateTable('tel_5m')
        .set({ frequency: null })
        .where('node_id', '=', nodes[nodes.length - 1])
        .where('ts', '>=', start)
        .where('ts', '<', end)
        .execute();
      // Local days that have ended are read compacted, as on a running server (the hourly job); the
      // exported day reaches into them.
      await h().ctx.telemetry.compact();
      const packed = await h()
        .ctx.db.selectFrom('tel_day')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('node_id', 'in', nodes)
        .where('day', '>', start - 25 * 3600)
        .where('day', '<', end)
        .executeTakeFirstOrThrow();
      expect(Number(packed.n)).toBeGreaterThan(0);
    });

    it('exports a VPP at 5 minutes and 1 hour exactly as the node data API answers the same interval', async () => {
      for (const [interval, seconds] of [
        ['5m', 300],
        ['1h', 3600],
      ] as const) {
        const detail = await exported(
          operational({ powerstation: vpp, queries: ['meter_power', 'solar_power', 'battery_power', 'remaining_charge'], interval }),
        );
        expect(detail).toMatchObject({ status: 'SUCCESS', progress: 1, time_remaining: 0, task_type: 'operational', task_info: { powerstation: vpp } });
        expect(detail.details.signed_urls.map((f) => f.metric)).toEqual(['meter_power', 'solar_power', 'battery_power', 'remaining_charge']);
        for (const [metric, api] of [
          ['meter_power', 'meterPower'],
          ['solar_power', 'solarPower'],
          ['battery_power', 'batteryPower'],
          ['remaining_charge', 'remainingCharge'],
        ] as const) {
          const rows = await csv(detail, metric);
          const header = Object.keys(rows[0]);
          expect(header.slice(0, 2)).toEqual(['timestamp', 'ts']);
          expect(header).toHaveLength(2 + nodes.length);
          // One row per interval of the export zone's day, in order (hours are Sydney's local hours,
          // none at half past). A node whose hours are the export zone's has the API's values; one in
          // Adelaide or Darwin the average of its 5-minute values in each of those hours.
          expect(rows.map((r) => Number(r.ts))).toEqual(Array.from({ length: (end - start) / seconds }, (_, i) => start + i * seconds));
          const all = await Promise.all(nodes.map((n) => series(n, api, seconds)));
          for (const [i, node] of nodes.entries()) {
            expect(header[2 + i]).toContain(`(node ${node})`);
            const column = rows.map((r) => r[header[2 + i]]);
            if (seconds === 300 || hoursAligned(zones.get(node) as string)) expect(column).toEqual(rows.map((r) => cell(all[i][r.ts]?.[api])));
            else expectHourlyMeans(column, rows, await series(node, api, 300), api);
          }
          expect(rows.some((r) => header.slice(2).some((k) => r[k] !== ''))).toBe(true);
        }
      }
    });

    it('closes the signed links of a sign-in at its logout, and those of an API key at its revocation (issue 32, item 7)', async () => {
      const { username } = await h().user(org, { permissions: ALL });
      const session = await h().bearer(username);
      const link = async (detail: ExportJobDetail) => detail.details.signed_urls.find((f) => f.metric === 'meter_power')?.signed_url as string;
      const fromSession = await link(await exported(operational({ powerstation: vpp, interval: '1h' }), session));
      // Another sign-in's links, the admin's, stay open whatever this one does.
      const fromAdmin = await link(await exported(operational({ powerstation: vpp, interval: '1h' })));
      expect((await get(fromSession, undefined)).statusCode).toBe(200);
      expect((await h().app.inject({ method: 'POST', url: '/auth/logout/', headers: session })).statusCode).toBe(200);
      const closed = await get(fromSession, undefined);
      expect(closed.statusCode).toBe(403);
      expect(closed.json().data.message).toBe(M.linkInvalid);
      expect((await get(fromAdmin, undefined)).statusCode).toBe(200);

      const password = encodeURIComponent(Buffer.from(PASSWORD).toString('base64'));
      const made = await h().app.inject({
        method: 'POST',
        url: `/account/api-keys?password=${password}`,
        headers: admin,
        payload: { keyName: 'exports', scopes: ALL },
      });
      const key = { 'x-api-key': made.json().data.key as string };
      const queued = await h().app.inject({
        method: 'POST',
        url: '/analysis/export-jobs',
        headers: key,
        payload: operational({ powerstation: vpp, interval: '1h' }),
      });
      expect(queued.statusCode, queued.body).toBe(200);
      await runJobs(h().ctx, [exportJob]);
      const viaKey = await h().app.inject({ method: 'GET', url: `/analysis/export-jobs/${queued.json().data.task_id}`, headers: key });
      const fromKey = await link(viaKey.json().data);
      expect((await get(fromKey, undefined)).statusCode).toBe(200);
      await h().app.inject({ method: 'DELETE', url: `/account/api-keys/${made.json().data.keyId}?password=${password}`, headers: admin });
      expect((await get(fromKey, undefined)).statusCode).toBe(403);
    });

    it('aggregates a VPP into one column: the sum of its nodes', async () => {
      const detail = await exported(operational({ powerstation: vpp, aggByPowerstation: true, interval: '1h' }));
      const rows = await csv(detail, 'meter_power');
      expect(Object.keys(rows[0])).toEqual(['timestamp', 'ts', 'Harbour VPP Meter Power (sum)']);
      // The sum, row by row, of the node columns of the same export without the aggregate.
      const perNode = await csv(await exported(operational({ powerstation: vpp, interval: '1h' })), 'meter_power');
      expect(rows.map((r) => r.ts)).toEqual(perNode.map((r) => r.ts));
      expect(rows.map((r) => r['Harbour VPP Meter Power (sum)'])).toEqual(perNode.map(sumOfNodes));
      expect(rows.some((r) => r['Harbour VPP Meter Power (sum)'] !== '')).toBe(true);
    });

    it('writes the rows of the export zone for a VPP across time zones: one per local hour, summed whole', async () => {
      const pick = ['Australia/Sydney', 'Australia/Adelaide', 'Australia/Brisbane'].map((z) => nodes.find((n) => zones.get(n) === z));
      expect(pick, JSON.stringify(Object.fromEntries(zones))).not.toContain(undefined);
      const three = (await post('/api/powerstations', { type: 'STATIC', name: 'Three Zones VPP', nodes: pick })).json().data.id;
      for (const [interval, seconds] of [
        ['1h', 3600],
        ['6h', 21600],
        ['12h', 43200],
        ['1d', 86400],
        ['3d', 259200],
        ['1w', 604800],
      ] as const) {
        const summed = await csv(await exported(operational({ powerstation: three, aggByPowerstation: true, interval })), 'meter_power');
        const perNode = await csv(await exported(operational({ powerstation: three, interval })), 'meter_power');
        // The export zone's buckets only, within [start, end): hours on the hour, 6 and 12 hours from
        // local 00:00 (06:00, 12:00, 18:00), a day, 3 days or a week from the start (cut at the end).
        const expected =
          seconds === 3600
            ? Array.from({ length: (end - start) / 3600 }, (_, i) => start + i * 3600)
            : seconds < 86400
              ? Array.from({ length: (end - start) / 3600 }, (_, i) => start + i * 3600).filter((t) => Number(localHour(t)) % (seconds / 3600) === 0)
              : [start];
        expect(
          perNode.map((r) => Number(r.ts)),
          interval,
        ).toEqual(expected);
        expect(
          summed.map((r) => Number(r.ts)),
          interval,
        ).toEqual(expected);
        expect(
          summed.map((r) => r['Three Zones VPP Meter Power (sum)']),
          interval,
        ).toEqual(perNode.map(sumOfNodes));
        expect(
          perNode.every((r) =>
            Object.values(r)
              .slice(2)
              .every((v) => v !== ''),
          ),
          interval,
        ).toBe(true);
      }
      // Hourly: Sydney and Brisbane hours are the export's (the API's values); Adelaide's are averaged.
      const hourly = await csv(await exported(operational({ powerstation: three, interval: '1h' })), 'meter_power');
      const header = Object.keys(hourly[0]);
      for (const node of pick as number[]) {
        const label = header.find((k) => k.endsWith(`(node ${node})`)) as string;
        const column = hourly.map((r) => r[label]);
        if (hoursAligned(zones.get(node) as string)) {
          const s = await series(node, 'meterPower', 3600);
          expect(column).toEqual(hourly.map((r) => cell(s[r.ts]?.meterPower)));
        } else expectHourlyMeans(column, hourly, await series(node, 'meterPower', 300), 'meterPower');
      }
      // Daily: the Sydney node's day is the API's.
      const daily = await csv(await exported(operational({ deploymentUids: [pick[0]], interval: '1d' })), 'meter_power');
      const day = await series(pick[0] as number, 'meterPower', 86400);
      expect(daily.map((r) => r[Object.keys(r)[2]])).toEqual(daily.map((r) => cell(day[r.ts]?.meterPower)));
    });

    it('splits meter power by phase: a column per phase of each node, as the API answers A, B and C', async () => {
      const picked = nodes.slice(0, 3);
      const detail = await exported(operational({ deploymentUids: picked, splitPhases: true }));
      const rows = await csv(detail, 'meter_power');
      const header = Object.keys(rows[0]);
      expect(header).toHaveLength(2 + picked.length * 3);
      for (const [i, node] of picked.entries()) {
        const s = await series(node, 'meterPowerA,meterPowerB,meterPowerC', 300);
        for (const [j, phase] of ['A', 'B', 'C'].entries()) {
          const col = header[2 + i * 3 + j];
          expect(col).toBe(`${col.split(' (')[0]} (node ${node}) phase ${phase}`);
          expect(rows.map((r) => r[col])).toEqual(rows.map((r) => cell(s[r.ts]?.[`meterPower${phase}`])));
        }
      }
    });

    it('exports submeters, a column each, as the submeter API answers them', async () => {
      expect(submeters.length).toBeGreaterThan(0);
      const detail = await exported(operational({ powerstation: vpp, queries: ['submeter_power'], includeSubmeters: true, interval: '1h' }));
      const rows = await csv(detail, 'submeter_power');
      const header = Object.keys(rows[0]);
      expect(header).toHaveLength(2 + submeters.length);
      const historical = async (sub: { id: number; node_id: number }, deltaT: number) => {
        const res = await get(
          `/fleet/deployment/${sub.node_id}/customerdata/submeter/historical/p?aggregation_base=client&delta_t=${deltaT}&start=${start}&end=${end}&id=${sub.id}`,
        );
        expect(res.statusCode, res.body).toBe(200);
        return res.json().data as Record<string, { p: number | null }>;
      };
      expect(rows.map((r) => Number(r.ts))).toEqual(Array.from({ length: (end - start) / 3600 }, (_, i) => start + i * 3600));
      for (const [i, sub] of submeters.entries()) {
        expect(header[2 + i]).toContain(`(node ${sub.node_id})`);
        const column = rows.map((r) => r[header[2 + i]]);
        // The submeter graph's hours are its node's: the same as the export's when they line up.
        if (hoursAligned(zones.get(sub.node_id) as string)) {
          const data = await historical(sub, 3600);
          expect(column).toEqual(rows.map((r) => cell(data[r.ts]?.p)));
        } else {
          const five = Object.fromEntries(Object.entries(await historical(sub, 300)).map(([t, v]) => [t, { p: v.p }]));
          expectHourlyMeans(column, rows, five, 'p');
        }
      }
      // Without Include Submeter Data, submeter metrics are refused.
      const refused = await post('/analysis/export-jobs', operational({ powerstation: vpp, queries: ['submeter_power'] }));
      expect(refused.statusCode).toBe(400);
      expect(refused.json().data.message).toBe(M.submetersNeedInclude);
    });

    it("lists a metric with no data as empty, without a link ('(no data)'), and the export as empty", async () => {
      const long = start - 400 * 86400;
      const detail = await exported(operational({ deploymentUids: [nodes[0]], start: long, end: long + 86400, queries: ['meter_power', 'solar_power'] }));
      expect(detail.status).toBe('SUCCESS');
      expect(detail.details.empty).toBe(true);
      for (const f of detail.details.signed_urls) expect(f).toMatchObject({ empty: true, signed_url: null });
      // One metric with data beside one without: only the latter is empty ('(no data)', no link); the
      // other's file opens with values in its rows.
      // The last node's meter sent no frequency that day (its other readings stand; see beforeAll).
      const quiet = nodes[nodes.length - 1];
      const mixed = await exported(operational({ deploymentUids: [quiet], queries: ['meter_power', 'meter_frequency'] }));
      expect(mixed.details.empty).toBe(false);
      expect(mixed.details.signed_urls.find((f) => f.metric === 'meter_frequency')).toMatchObject({ empty: true, signed_url: null });
      expect(mixed.details.signed_urls.find((f) => f.metric === 'meter_power')).toMatchObject({ empty: false, signed_url: expect.any(String) });
      const rows = await csv(mixed, 'meter_power');
      expect(rows).toHaveLength((end - start) / 300);
      expect(rows.filter((r) => r[Object.keys(r)[2]] !== '').length).toBeGreaterThan(0);
    });

    it('refuses bad input with a message and queues nothing', async () => {
      const noSga = await h().bearer(
        (await h().user(org, { permissions: ALL.filter((p) => p !== 'fleet.administrator' && p !== 'fleet.node.sga_data.view') })).username,
      );
      const before = await counts();
      const cases: [unknown, number, string, Headers?][] = [
        [operational({ powerstation: vpp, deploymentUids: [nodes[0]] }), 400, M.vppOrNodes],
        [operational({ deploymentUids: [nodes[0]], aggByPowerstation: true }), 400, M.aggregateNeedsVpp],
        [operational({ powerstation: vpp, queries: ['meter_power', 'meter_sga_power'] }), 400, M.sgaNotAllowed, noSga],
        [operational({ powerstation: vpp, start: end, end: start }), 400, M.startAfterEnd],
        [operational({ powerstation: vpp, start: start - 400 * 86400 }), 400, M.rangeTooLong(366)],
        [operational({ powerstation: vpp, queries: ['meter_power', 'bogus'] }), 400, M.unknownMetrics(['bogus'])],
        [operational({ powerstation: vpp, queries: [] }), 400, M.metricsRequired],
        [operational({ powerstation: vpp, queries: ['meter_voltage'] }), 400, M.networkOnlyMetrics(['meter_voltage'])],
        [operational({ powerstation: vpp, splitPhases: true, aggByPowerstation: true }), 400, M.splitWithAggregate],
        [operational({ deploymentUids: [] }), 400, M.nodesRequired],
        [operational({}), 400, M.powerstationRequired],
        [operational({ start: undefined, powerstation: vpp }), 400, M.startRequired],
        [operational({ powerstation: theirVpp }), 404, 'No such Virtual Power Plant.'],
        [operational({ deploymentUids: [nodes[0], theirNodes[0]] }), 404, M.nodesNotFound([theirNodes[0]])],
        [operational({ powerstation: vpp }), 403, MESSAGES.notAuthorized, viewer],
        [{ type: 'customer', params: { allCustomers: true } }, 400, M.allCustomersNetworkOnly],
        [{ type: 'customer', params: { powerstation: theirVpp } }, 404, 'No such Virtual Power Plant.'],
      ];
      for (const [body, status, message, headers] of cases) {
        const res = await post('/analysis/export-jobs', body, headers ?? admin);
        expect(res.statusCode, JSON.stringify(body)).toBe(status);
        expect(res.json().data.message).toBe(message);
      }
      expect(await counts()).toEqual(before);
      // A viewer may still export individual nodes.
      expect((await post('/analysis/export-jobs', operational({ deploymentUids: [nodes[0]] }), viewer)).statusCode).toBe(200);
      await runJobs(h().ctx, [exportJob]);
    });

    it('counts the range limit in local days: exactly the limit across a DST change passes, a day more is refused', async () => {
      const limit = h().ctx.config.EXPORT_MAX_RANGE_DAYS;
      h().ctx.config.EXPORT_MAX_RANGE_DAYS = 7;
      try {
        // Sydney's clocks go back on 5 April 2026 and forward on 4 October 2026: 7 local days of 169 and 167 hours.
        for (const from of ['2026-04-01', '2026-10-01']) {
          const a = localDateToEpoch(from, ZONE);
          const week = shiftPeriod(a, 'day', 7, ZONE);
          expect(Math.abs(week - a - 7 * 86400)).toBe(3600);
          const before = await counts();
          const over = await post(
            '/analysis/export-jobs',
            operational({ deploymentUids: [nodes[0]], start: a, end: shiftPeriod(a, 'day', 8, ZONE), interval: '1w' }),
          );
          expect(over.statusCode).toBe(400);
          expect(over.json().data.message).toBe(M.rangeTooLong(7));
          expect(await counts()).toEqual(before);
          const ok = await post('/analysis/export-jobs', operational({ deploymentUids: [nodes[0]], start: a, end: week, interval: '1w' }));
          expect(ok.statusCode, ok.body).toBe(200);
        }
      } finally {
        h().ctx.config.EXPORT_MAX_RANGE_DAYS = limit;
      }
      await runJobs(h().ctx, [exportJob]);
    });

    it('exports customers with the columns of the organisation type', async () => {
      const detail = await exported({ type: 'customer', params: { powerstation: vpp } });
      expect(detail).toMatchObject({ task_type: 'customer', metrics: ['customers'], status: 'SUCCESS' });
      const rows = await csv(detail, 'customers');
      expect(rows.map((r) => Number(r.deploymentUid)).sort((a, b) => a - b)).toEqual(nodes);
      expect(Object.keys(rows[0])).toEqual(expect.arrayContaining(['nmi', 'addressLine1', 'batteryCapacityKwh', 'agreementVersion', 'capabilities', 'plan']));
      expect(Object.keys(rows[0])).not.toContain('network');
      const list = (await get('/contracts/customer?limit=200&offset=0')).json().data.customers as { nmi: string; addressLine1: string; capacity: number }[];
      for (const r of rows) {
        const c = list.find((x) => x.nmi === r.nmi);
        expect(r.addressLine1).toBe(c?.addressLine1);
        expect(Number(r.batteryCapacityKwh)).toBe(c?.capacity);
      }

      const network = await h().org('NETWORK', 'Grid Co');
      const installer = await h().org('INSTALLER', 'Sparky');
      await h()
        .ctx.db.insertInto('fleet_members')
        .values(
          nodes.slice(0, 2).flatMap((node_id) => [
            { organisation_id: network, node_id, role: 'NETWORK' as const, site_label: null },
            { organisation_id: installer, node_id, role: 'INSTALLER' as const, site_label: null },
          ]),
        )
        .execute();
      // A home the network holds in another role (off its network): in its Fleet, not on its network.
      await h().ctx.db.insertInto('fleet_members').values({ organisation_id: network, node_id: nodes[2], role: 'INSTALLER', site_label: null }).execute();
      const net = await h().bearer((await h().user(network, { permissions: ALL })).username);
      const inst = await h().bearer((await h().user(installer, { permissions: ALL })).username);
      for (const allCustomers of [false, true]) {
        const n = await exported({ type: 'customer', params: { allCustomers } }, net);
        expect(n.task_info.all_customers).toBe(allCustomers);
        const nrows = await (async () => {
          const f = n.details.signed_urls[0];
          return parse((await h().app.inject({ method: 'GET', url: f.signed_url as string })).body, { columns: true }) as Record<string, string>[];
        })();
        const nmis = (
          await h()
            .ctx.db.selectFrom('nodes')
            .select('nmi')
            .where('id', 'in', nodes.slice(0, allCustomers ? 3 : 2))
            .execute()
        ).map((r) => r.nmi);
        expect(nrows.map((r) => r.nmi).sort()).toEqual(nmis.sort());
        expect(Object.keys(nrows[0])).toEqual(expect.arrayContaining(['network', 'region', 'phases', 'solarKw']));
        expect(Object.keys(nrows[0])).not.toContain('plan');
      }
      const refused = await post('/analysis/export-jobs', { type: 'customer', params: { powerstation: vpp } }, inst);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().data.message).toBe(M.installerNoVpp);
      const i = await exported({ type: 'customer', params: {} }, inst);
      const irows = parse((await h().app.inject({ method: 'GET', url: i.details.signed_urls[0].signed_url as string })).body, { columns: true }) as Record<
        string,
        string
      >[];
      expect(irows).toHaveLength(2);
      expect(Object.keys(irows[0])).not.toContain('plan');
      expect(Object.keys(irows[0])).not.toContain('network');
    });

    it('opens files only through an unaltered, unexpired signed URL of their path', async () => {
      const detail = await exported(operational({ deploymentUids: [nodes[0]] }));
      const file = detail.details.signed_urls[0];
      const url = file.signed_url as string;
      expect(url).toMatch(new RegExp(`^/analysis/export-jobs/${detail.task_id}/files/${file.filename}\\?token=`));
      expect(file.filename).toMatch(/^meter-power-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
      // Not single-use: the same link works again within its minutes.
      expect((await h().app.inject({ method: 'GET', url })).statusCode).toBe(200);
      expect((await h().app.inject({ method: 'GET', url })).statusCode).toBe(200);
      const token = url.split('token=')[1];
      const tampered = `${url.split('token=')[0]}token=${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
      const expired = await signDownload(h().ctx.keys.download, { path: url.split('?')[0], userId: 1, ttlS: 60 }, nowS() - 3600);
      const otherFile = url.replace(file.filename, 'solar-power.csv');
      for (const bad of [tampered, `${url.split('?')[0]}?token=${expired}`, otherFile]) {
        const res = await h().app.inject({ method: 'GET', url: bad });
        expect(res.statusCode, bad).toBe(403);
        expect(res.json().data.message).toBe(M.linkInvalid);
      }
      // The detail of another organisation's export is not found.
      expect((await get(`/analysis/export-jobs/${detail.task_id}`, outsider)).statusCode).toBe(404);
      // A link of a user who has since lost export view no longer opens.
      const leaver = await h().user(org, { permissions: WITHOUT_EDIT });
      const theirs = await signDownload(h().ctx.keys.download, { path: url.split('?')[0], userId: leaver.id, ttlS: 60 });
      expect((await h().app.inject({ method: 'GET', url: `${url.split('?')[0]}?token=${theirs}` })).statusCode).toBe(200);
      await h().ctx.db.deleteFrom('user_permissions').where('user_id', '=', leaver.id).execute();
      const refused = await h().app.inject({ method: 'GET', url: `${url.split('?')[0]}?token=${theirs}` });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().data.message).toBe(MESSAGES.notAuthorized);
    });

    it('cancels a pending export: it stays cancelled and makes no files', async () => {
      const res = await post('/analysis/export-jobs', operational({ powerstation: vpp }));
      const id = res.json().data.task_id;
      expect((await post(`/analysis/export-jobs/${id}/cancel`, {}, outsider)).statusCode).toBe(404);
      const cancelled = await post(`/analysis/export-jobs/${id}/cancel`, {});
      expect(cancelled.statusCode).toBe(200);
      expect(cancelled.json().data.status).toBe('CANCELLED');
      await runJobs(h().ctx, [exportJob]);
      const detail = (await get(`/analysis/export-jobs/${id}`)).json().data;
      expect(detail).toMatchObject({ status: 'CANCELLED', details: { status: 'CANCELLED', signed_urls: [] } });
      const again = await post(`/analysis/export-jobs/${id}/cancel`, {});
      expect(again.statusCode).toBe(409);
      expect(again.json().data.message).toBe(M.cannotCancel);
      const ref = detail.reference_id;
      expect(fs.existsSync(path.join(h().ctx.config.dataDir, 'files', 'exports', ref))).toBe(false);
    });

    it('lets the creator of an export, or a user with export edit, cancel it; others are refused', async () => {
      const mine = (await post('/analysis/export-jobs', operational({ deploymentUids: [nodes[0]] }), viewer)).json().data.task_id;
      const adminOwn = (await post('/analysis/export-jobs', operational({ deploymentUids: [nodes[0]] }))).json().data.task_id;
      const other = await h().bearer((await h().user(org, { permissions: WITHOUT_EDIT })).username);
      const theirs = (await post('/analysis/export-jobs', operational({ deploymentUids: [nodes[0]] }), other)).json().data.task_id;
      // Each job names its creator (task_info.user), which the screen offers Cancel Export to.
      const creator = async (id: number) => (await get(`/analysis/export-jobs/${id}`)).json().data.task_info.user as number;
      expect(await creator(mine)).not.toBe(await creator(adminOwn));
      expect(await creator(theirs)).not.toBe(await creator(mine));
      expect((await get('/account', viewer)).json().data.id).toBe(await creator(mine));
      // A viewer cancels their own, but not another user's.
      const refused = await post(`/analysis/export-jobs/${adminOwn}/cancel`, {}, viewer);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().data.message).toBe(M.cancelNotAllowed);
      expect((await get(`/analysis/export-jobs/${adminOwn}`)).json().data.status).toBe('PENDING');
      const own = await post(`/analysis/export-jobs/${mine}/cancel`, {}, viewer);
      expect(own.statusCode, own.body).toBe(200);
      expect(own.json().data.status).toBe('CANCELLED');
      // Export edit cancels anyone's in the organisation.
      const edited = await post(`/analysis/export-jobs/${theirs}/cancel`, {});
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json().data.status).toBe('CANCELLED');
      await runJobs(h().ctx, [exportJob]);
    });

    it('shows FAILURE as soon as its job has failed for good, not an hour later', async () => {
      for (const how of ['failed', 'died'] as const) {
        const id = (await post('/analysis/export-jobs', operational({ deploymentUids: [nodes[0]] }))).json().data.task_id as number;
        await h().ctx.db.updateTable('export_jobs').set({ status: 'PROGRESS', progress: 0.4 }).where('id', '=', id).execute();
        const job = h().ctx.db.updateTable('jobs').where('unique_key', '=', `export:${id}`);
        // Failed for good; or its last attempt's worker died (its lease ran out, the job not yet swept).
        if (how === 'failed') await job.set({ status: 'failed', finished_at: nowS() }).execute();
        else await job.set((eb) => ({ attempts: eb.ref('max_attempts'), locked_by: 'gone', locked_until: nowS() - 1 })).execute();
        const detail = (await get(`/analysis/export-jobs/${id}`)).json().data as ExportJobDetail;
        expect(detail, how).toMatchObject({ status: 'FAILURE', details: { status: 'FAILURE', error: M.generateError, signed_urls: [] } });
        const listed = (await get('/analysis/export-jobs?limit=50&offset=0')).json().data.tasks.find((t: { task_id: number }) => t.task_id === id);
        expect(listed.status, how).toBe('FAILURE');
      }
      // A job still retrying (attempts left) keeps its export in progress.
      const id = (await post('/analysis/export-jobs', operational({ deploymentUids: [nodes[0]] }))).json().data.task_id as number;
      await h().ctx.db.updateTable('export_jobs').set({ status: 'PROGRESS' }).where('id', '=', id).execute();
      await h()
        .ctx.db.updateTable('jobs')
        .where('unique_key', '=', `export:${id}`)
        .set({ attempts: 1, locked_by: 'gone', locked_until: nowS() - 1 })
        .execute();
      expect((await get(`/analysis/export-jobs/${id}`)).json().data.status).toBe('PROGRESS');
      await h().ctx.db.updateTable('jobs').where('unique_key', '=', `export:${id}`).set({ locked_by: null, locked_until: null }).execute();
      await runJobs(h().ctx, [exportJob]);
      expect((await get(`/analysis/export-jobs/${id}`)).json().data.status).toBe('SUCCESS');
    });

    it('reports progress and the time left while it runs, and a cancel in flight stops it without files', async () => {
      const res = await post('/analysis/export-jobs', operational({ powerstation: vpp, queries: ['meter_power', 'battery_power'] }));
      const id = res.json().data.task_id as number;
      // Watched and cancelled at its first progress write, while the export waits for it.
      let seen: { status: string; progress: number; time_remaining: number | null } | undefined;
      let cancelled: string | undefined;
      await runExport(h().ctx, id, { attempt: 1 }, async () => {
        if (seen) return;
        seen = (await get(`/analysis/export-jobs/${id}`)).json().data;
        cancelled = (await post(`/analysis/export-jobs/${id}/cancel`, {})).json().data.status;
      });
      expect(seen).toMatchObject({ status: 'PROGRESS' });
      expect(seen?.progress).toBeGreaterThan(0);
      expect(seen?.progress).toBeLessThan(1);
      expect(seen?.time_remaining).toBeGreaterThanOrEqual(0);
      expect(cancelled).toBe('CANCELLED');
      const detail = (await get(`/analysis/export-jobs/${id}`)).json().data;
      expect(detail).toMatchObject({ status: 'CANCELLED', details: { signed_urls: [] } });
      expect(fs.existsSync(path.join(h().ctx.config.dataDir, 'files', 'exports', detail.reference_id))).toBe(false);
    });

    it('starts again after a run that died mid-export: no half file is ever listed, and the files end complete', async () => {
      const res = await post('/analysis/export-jobs', operational({ powerstation: vpp, queries: ['meter_power', 'solar_power'] }));
      const id = res.json().data.task_id as number;
      armCrashPoint('export:3', () => {
        throw new Error('power cut');
      });
      await expect(runExport(h().ctx, id, { attempt: 1 })).rejects.toThrow('power cut');
      armCrashPoint(undefined);
      const mid = (await get(`/analysis/export-jobs/${id}`)).json().data;
      expect(mid).toMatchObject({ status: 'PROGRESS', details: { signed_urls: [] } });
      await runExport(h().ctx, id, { attempt: 2 });
      const detail = (await get(`/analysis/export-jobs/${id}`)).json().data as ExportJobDetail;
      expect(detail.status).toBe('SUCCESS');
      const rows = await csv(detail, 'meter_power');
      expect(rows).toHaveLength((end - start) / 300);
      const folder = path.join(h().ctx.config.dataDir, 'files', 'exports', detail.reference_id);
      expect(fs.readdirSync(folder).sort()).toEqual(detail.details.signed_urls.map((f) => f.filename).sort());
    });

    it("writes the same bytes in the streaming worker as on the API's thread: phases, submeters, a sum, many pages", async () => {
      const exportNodes = await h().ctx.db.selectFrom('nodes').select(['id', 'nmi', 'timezone']).where('id', 'in', nodes).orderBy('id').execute();
      const plan: OperationalPlan = {
        nodes: exportNodes.map((n) => ({ id: n.id, nmi: n.nmi as string, timezone: n.timezone as string })),
        submeters: submeters.map((s, i) => ({ id: s.id, nodeId: s.node_id, name: `Submeter ${i + 1}` })),
        metrics: ['meter_power', 'meter_voltage', 'battery_power', 'submeter_power'],
        // Across the compacted days before the exported one and the recent rows after it.
        start: start - 86400,
        end: end + 86400,
        interval: 300,
        zone: ZONE,
        splitPhases: true,
        aggregate: null,
        pageValues: 200,
      };
      /** The files written, as bytes, and the pages reported. */
      const written = async (worker: boolean, p: OperationalPlan) => {
        const chunks: Buffer[][] = p.metrics.map(() => []);
        const writers = chunks.map((c) => ({
          write: async (x: string | Uint8Array) => void c.push(Buffer.from(x)),
          commit: async () => 0,
          abort: async () => undefined,
        }));
        let pages = 0;
        const result = await writeOperational(
          h().ctx.telemetry,
          p,
          writers,
          { page: async () => void pages++ },
          worker ? databaseSource(h().ctx.db) : undefined,
        );
        return { files: chunks.map((c) => Buffer.concat(c)), pages, result };
      };
      for (const p of [plan, { ...plan, interval: 3600, aggregate: 'Harbour VPP', splitPhases: false }]) {
        const [inWorker, here] = [await written(true, p), await written(false, p)];
        expect(inWorker.pages).toBeGreaterThan(10);
        expect(inWorker.pages).toBe(here.pages);
        expect(inWorker.result).toEqual(here.result);
        expect(inWorker.result.map((r) => r.empty)).toEqual([false, false, false, false]);
        for (const [i, f] of inWorker.files.entries()) {
          expect(f.length).toBeGreaterThan(1000);
          expect(f.equals(here.files[i]), p.metrics[i]).toBe(true);
        }
      }
    });

    it("stops the worker's task when the export is cancelled between pages", async () => {
      const plan: OperationalPlan = {
        nodes: nodes.map((id) => ({ id, nmi: `NMI${id}`, timezone: ZONE })),
        submeters: [],
        metrics: ['meter_power'],
        start,
        end,
        interval: 300,
        zone: ZONE,
        splitPhases: false,
        aggregate: null,
        pageValues: 200,
      };
      const writer = { write: async () => undefined, commit: async () => 0, abort: async () => undefined };
      let pages = 0;
      const stop = new Error('cancelled');
      const page = async () => {
        if (++pages === 2) throw stop;
      };
      await expect(writeOperational(h().ctx.telemetry, plan, [writer], { page }, databaseSource(h().ctx.db))).rejects.toBe(stop);
      expect(pages).toBe(2);
      await expect.poll(streamingTasks).toBe(0);
    });

    it('lists exports newest first, paged, and removes files after the retention period (REMOVED)', async () => {
      const page = (await get('/analysis/export-jobs?limit=2&offset=0')).json().data;
      expect(page.tasks).toHaveLength(2);
      expect(page.total).toBeGreaterThan(2);
      expect(page.tasks[0].task_id).toBeGreaterThan(page.tasks[1].task_id);
      const second = (await get('/analysis/export-jobs?limit=2&offset=2')).json().data;
      expect(second.tasks[0].task_id).toBeLessThan(page.tasks[1].task_id);
      expect((await get('/analysis/export-jobs', outsider)).json().data).toEqual({ tasks: [], total: 0 });

      const detail = await exported(operational({ deploymentUids: [nodes[0]] }));
      const url = detail.details.signed_urls[0].signed_url as string;
      expect(detail.expires_at).toBe((detail.finished_at as number) + 7 * 86400);
      const removed = await sweepExports(h().ctx, (detail.expires_at as number) + 1);
      expect(removed).toBeGreaterThanOrEqual(1);
      const after = (await get(`/analysis/export-jobs/${detail.task_id}`)).json().data;
      expect(after).toMatchObject({ status: 'REMOVED', details: { signed_urls: [] } });
      const gone = await h().app.inject({ method: 'GET', url });
      expect(gone.statusCode).toBe(404);
      expect(gone.json().data.message).toBe(M.filesRemoved);
    });
  },
  { EXPORT_PAGE_VALUES: '200' },
);
