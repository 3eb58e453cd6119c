import fs from 'node:fs';
import path from 'node:path';
import type { ExportJobDetail } from '@vpp/shared/exports/schemas';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { DIALECTS, fastClock, serverProcess, waitFor } from './test/server-process.ts';

/**
 * kill -9 mid-export (issue 17, Bad input and faults): the real server in a child process kills
 * itself at the third page of an export (CRASH_AT=export:3), its files half written under temporary
 * names. Started again on the same data, the job is claimed again once its lease runs out (the clock
 * runs 60 times faster), starts the files afresh and finishes: every file complete, nothing partial
 * left, and none was ever listed before it was whole.
 */
const RATE = 60;

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`an export across a kill -9 [${dialect}]`, () => {
    const { env, clock } = fastClock(RATE);
    // 12 nodes, in pages of a few hours: the export runs through dozens of them.
    const srv = serverProcess(dialect, 'xcrash', { ...env, SIM_NODES: '12', EXPORT_PAGE_VALUES: '300' });
    afterAll(() => srv.cleanup());

    it('completes the export after the restart, with whole files', { timeout: 150_000 }, async () => {
      const first = await srv.start({ CRASH_AT: 'export:3' });
      const headers = await srv.signIn(first.url);
      await srv.fleetLive(clock);
      const nodes = (await srv.call<{ deployments: { id: number }[] }>(`${first.url}/v2/nodes?limit=100&offset=0`, headers)).deployments.map((d) => d.id);
      const now = clock();
      const start = now - (now % 3600) - 86400;
      const end = start + 86400;
      const job = await srv.call<{ data: { task_id: number; reference_id: string } }>(`${first.url}/analysis/export-jobs`, headers, {
        type: 'operational',
        params: { start, end, deploymentUids: nodes, queries: ['meter_power', 'solar_power', 'battery_power'], interval: '5m' },
      });
      const id = job.data.task_id;

      expect(await first.exited).toBe('SIGKILL');
      const [row] = await srv.query<{ status: string; files: string | null }>(`select status, files from export_jobs where id = ${id}`);
      expect(row).toEqual({ status: 'PROGRESS', files: null });
      const folder = path.join(srv.dataDir, 'files', 'exports', job.data.reference_id);
      // Killed mid-write: only temporary files, never one under its final name.
      expect((fs.existsSync(folder) ? fs.readdirSync(folder) : []).every((f) => f.endsWith('.partial'))).toBe(true);

      const second = await srv.start();
      const again = await srv.signIn(second.url);
      const detail = await waitFor('the export to finish after the restart', async () => {
        const d = (await srv.call<{ data: ExportJobDetail }>(`${second.url}/analysis/export-jobs/${id}`, again)).data;
        expect(d.status).not.toBe('FAILURE');
        return d.status === 'SUCCESS' && d;
      });
      expect(detail.details.signed_urls.map((f) => f.metric)).toEqual(['meter_power', 'solar_power', 'battery_power']);
      expect(detail.details.empty).toBe(false);
      for (const f of detail.details.signed_urls.filter((x) => !x.empty)) {
        const res = await fetch(`${second.url}${f.signed_url}`);
        expect(res.status).toBe(200);
        const body = await res.text();
        expect(Buffer.byteLength(body)).toBe(f.size);
        const rows = parse(body, { columns: true }) as Record<string, string>[];
        // Every 5 minutes of the day, once, in order, each with a column per node.
        expect(rows.map((r) => Number(r.ts))).toEqual(Array.from({ length: 288 }, (_, i) => start + i * 300));
        expect(Object.keys(rows[0])).toHaveLength(2 + nodes.length);
      }
      expect(fs.readdirSync(folder).sort()).toEqual(detail.details.signed_urls.map((f) => f.filename).sort());
      await srv.stop();
    });
  });
}
