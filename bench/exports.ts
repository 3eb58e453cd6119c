// Data export figures (issue 17): an operational export of a VPP at 5 minutes, written by the real
// job in this process: values (one per node per interval) written to disk per second, the process's
// peak memory while it runs, and the p50 of another API call answered meanwhile; made in the streaming
// worker (the default) and, back to back, on the API's thread (`exportInThread…`).
import fs from 'node:fs';
import readline from 'node:readline';
import { runExport } from '../packages/server/src/features/exports/index.ts';
import type { AppContext } from '../packages/server/src/platform/context.ts';
import { streamWorkersCpuS } from '../packages/server/src/platform/run-in-worker.ts';

const log = (s: string) => process.stderr.write(`${s}\n`);

export async function benchExports(
  ctx: AppContext,
  base: string,
  headers: Record<string, string>,
  o: { vpp: number; nodes: number; start: number; end: number },
) {
  const queue = async () => {
    const res = await fetch(`${base}/analysis/export-jobs`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'operational', params: { start: o.start, end: o.end, powerstation: o.vpp, queries: ['meter_power'], interval: '5m' } }),
    });
    if (!res.ok) throw new Error(`export: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { data: { task_id: number } }).data.task_id;
  };
  // A first export warms the database's page cache (SQLite keeps up to 256 MiB of pages) and starts
  // the streaming worker: the timed runs' memory growth is then the export's own.
  log(`Exporting ${o.nodes} nodes × ${(o.end - o.start) / 300} intervals (once to warm the cache)…`);
  await runExport(ctx, await queue(), { attempt: 1 });
  // Another user's VPP list on its own, nothing else running: its time with the fleet's VPPs as they stand.
  const listMs: number[] = [];
  for (let i = 0; i < 23; i++) {
    const s = performance.now();
    const r = await fetch(`${base}/v2/powerstations?limit=10&offset=0`, { headers });
    await r.arrayBuffer();
    if (!r.ok) throw new Error(`GET /v2/powerstations: ${r.status}`);
    if (i >= 3) listMs.push(performance.now() - s);
  }
  listMs.sort((a, b) => a - b);
  const powerstationListP50Ms = Math.round(listMs[listMs.length >> 1] * 10) / 10;
  // The same export made on the API's thread and then in the streaming worker (CSV_IN_WORKER), back to back.
  const inThread = await timedExport(false);
  const inWorker = await timedExport(true);
  return {
    powerstationListP50Ms,
    ...inWorker,
    exportInThreadRowsPerS: inThread.exportRowsPerS,
    exportInThreadValuesPerCpuS: inThread.exportValuesPerCpuS,
    exportInThreadApiP50MsDuringExport: inThread.exportApiP50MsDuringExport,
    exportInThreadApiP95MsDuringExport: inThread.exportApiP95MsDuringExport,
    exportInThreadPeakRssMb: inThread.exportPeakRssMb,
    // The time inside the telemetry reads (with the adding up into the page's buckets), seen on the API's thread only.
    exportReadShare: inThread.exportReadShare,
  };

  async function timedExport(inWorker: boolean) {
    ctx.config.CSV_IN_WORKER = inWorker;
    const id = await queue();
    // Time inside the telemetry reads (with the adding up into the page's buckets), apart from the writing.
    let readMs = 0;
    const read = ctx.telemetry.buckets.bind(ctx.telemetry);
    ctx.telemetry.buckets = async (...args) => {
      const s = performance.now();
      await read(...args);
      readMs += performance.now() - s;
    };
    const heapBefore = process.memoryUsage().heapUsed;
    let heapPeak = heapBefore;

    // Another user's calls meanwhile (the VPP list), and the process's memory, sampled throughout.
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      rssPeak = Math.max(rssPeak, m.rss);
      heapPeak = Math.max(heapPeak, m.heapUsed);
    }, 10);
    let running = true;
    const apiMs: number[] = [];
    const probe = (async () => {
      while (running) {
        const s = performance.now();
        const r = await fetch(`${base}/v2/powerstations?limit=10&offset=0`, { headers });
        await r.arrayBuffer();
        apiMs.push(performance.now() - s);
        await new Promise((r) => setTimeout(r, 25));
      }
    })();
    const t = performance.now();
    const cpu = process.cpuUsage();
    const apiCpu = process.threadCpuUsage();
    const workersBefore = await streamWorkersCpuS();
    await runExport(ctx, id, { attempt: 1 });
    const seconds = (performance.now() - t) / 1000;
    const cpuUsed = process.cpuUsage(cpu);
    const apiUsed = process.threadCpuUsage(apiCpu);
    const workersS = (await streamWorkersCpuS()) - workersBefore;
    ctx.telemetry.buckets = read;
    running = false;
    await probe;
    clearInterval(sampler);

    const detail = (await (await fetch(`${base}/analysis/export-jobs/${id}`, { headers })).json()) as {
      data: { status: string; reference_id: string; details: { signed_urls: { filename: string; size: number }[] } };
    };
    if (detail.data.status !== 'SUCCESS') throw new Error(`export ${id} ended ${detail.data.status}`);
    const file = detail.data.details.signed_urls[0];
    // The file on disk: a header and a row per interval, each with a value (or blank) per node.
    const lines = readline.createInterface({ input: fs.createReadStream(`${ctx.config.dataDir}/files/exports/${detail.data.reference_id}/${file.filename}`) });
    let rows = -1;
    let blanks = 0;
    for await (const line of lines) {
      if (rows++ < 0) continue;
      // Fields after the two time columns that hold no value.
      let from = line.indexOf(',', line.indexOf(',') + 1);
      while (from >= 0) {
        const next = line.indexOf(',', from + 1);
        if ((next < 0 ? line.length : next) === from + 1) blanks++;
        from = next;
      }
    }
    if (rows !== (o.end - o.start) / 300) throw new Error(`The export held ${rows} rows, not ${(o.end - o.start) / 300}.`);
    const values = rows * o.nodes;
    apiMs.sort((a, b) => a - b);
    // Nanoseconds of CPU per value: the API's thread (the probe's requests included), the streaming worker, the server's other threads.
    const ns = (cpuS: number) => Math.round((cpuS / values) * 1e9);
    const processS = (cpuUsed.user + cpuUsed.system) / 1e6;
    const apiS = (apiUsed.user + apiUsed.system) / 1e6;
    log(`    CPU per value: ${ns(processS)} ns (API's thread ${ns(apiS)}, worker ${ns(workersS)}, other threads ${ns(processS - apiS - workersS)})`);
    log(
      `  ${inWorker ? 'in the worker' : "on the API's thread"}: ${values} values in ${Math.round(seconds * 10) / 10} s (${Math.round(file.size / 2 ** 20)} MiB); RSS ${Math.round(rssBefore / 2 ** 20)} MiB before, peak ${Math.round(rssPeak / 2 ** 20)} MiB`,
    );
    return {
      exportValues: values,
      exportRowsPerS: Math.round(values / seconds),
      // CPU seconds of this process's threads (the probe's requests included): two idle cores do at best the values over half of them.
      exportValuesPerCpuS: Math.round(values / ((cpuUsed.user + cpuUsed.system) / 1e6)),
      // Cells without a value (a node that had not reported): the figure is of values, not of blanks.
      exportBlankShare: Math.round((blanks / values) * 1000) / 1000,
      exportReadShare: Math.round((readMs / 1000 / seconds) * 100) / 100,
      // What the export adds to the process at its peak (the process itself holds the fleet's simulator and the app).
      exportPeakRssMb: Math.round((rssPeak - rssBefore) / 2 ** 20),
      exportPeakHeapGrowthMb: Math.round((heapPeak - heapBefore) / 2 ** 20),
      exportProcessPeakRssMb: Math.round(rssPeak / 2 ** 20),
      exportApiP50MsDuringExport: Math.round((apiMs[Math.floor(apiMs.length / 2)] ?? 0) * 10) / 10,
      exportApiP95MsDuringExport: Math.round((apiMs[Math.floor(apiMs.length * 0.95)] ?? 0) * 10) / 10,
    };
  }
}
