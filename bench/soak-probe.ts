// Loaded into the server only by `npm run bench:soak` (node --import): answers the soak's
// 'memory' messages over the IPC channel with the process's memory after a full collection, so
// the figure is what the server holds on to, not garbage not yet collected.
process.on('message', (message) => {
  if (message !== 'memory') return;
  globalThis.gc?.();
  const m = process.memoryUsage();
  process.send?.({ rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external });
});
