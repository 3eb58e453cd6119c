// What may import what (`npm run lint` runs it). An area is used by other areas only through its
// index.ts; the platform layers (server platform/ and db/, web lib/ and components/) import no area;
// nothing imports the composition roots; the e2e tests reach the app only through HTTP and the browser.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle ties modules that should stand on each other in one direction.',
      from: { pathNot: '^packages/server/src/(platform|telemetry)/' },
      to: { circular: true },
    },
    {
      name: 'no-circular-below-the-areas',
      severity: 'error',
      comment:
        "The context holds the telemetry store, whose module names its upkeep job in the context's types: a cycle through a type-only import is allowed there, none that runs.",
      from: { path: '^packages/server/src/(platform|telemetry)/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'area-through-index',
      severity: 'error',
      comment: 'Another area is reached only through its index.ts (server and web).',
      from: { path: '^packages/(server|web)/src/features/([^/]+)/' },
      to: {
        path: '^packages/(server|web)/src/features/([^/]+)/',
        pathNot: ['^packages/$1/src/features/$2/', '^packages/(server|web)/src/features/[^/]+/index\\.tsx?$'],
      },
    },
    {
      name: 'event-kernel-knows-no-kind',
      severity: 'error',
      comment:
        'Issue 29: the event kernel (features/events: find/require/present of an event kind, audit trail, cancel by kind, settlement queue, forecast of a window; server and web) stands below the kinds of event. Dispatches, RERT, outages and curtailments import it; it imports none of them.',
      from: { path: '^packages/(server|web)/src/features/events/' },
      to: { path: '^packages/(server|web)/src/features/(dispatches|rert|outages|curtailments)/' },
    },
    {
      name: 'event-kinds-know-not-each-other',
      severity: 'error',
      comment:
        'Issue 29: on the web, a kind of event (dispatches, RERT, outages, curtailments) imports no other kind; what two kinds share (a RERT dispatch is a dispatch of another type: the list, the detail, the modal and the draft rules) lives in the event kernel, features/events, parameterised by kind.',
      from: { path: '^packages/web/src/features/(dispatches|rert|outages|curtailments)/' },
      to: { path: '^packages/web/src/features/(dispatches|rert|outages|curtailments)/', pathNot: '^packages/web/src/features/$1/' },
    },
    {
      name: 'platform-imports-no-area',
      severity: 'error',
      comment: 'Server platform/ and db/ stand below the areas.',
      from: { path: '^packages/server/src/(platform|db)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^packages/server/src/(features|app\\.ts|main\\.ts|seed)' },
    },
    {
      name: 'telemetry-through-its-face',
      severity: 'error',
      comment: 'The telemetry store is reached only through its face, packages/server/src/telemetry/index.ts.',
      from: { pathNot: '^packages/server/src/telemetry/' },
      to: { path: '^packages/server/src/telemetry/', pathNot: '^packages/server/src/telemetry/index\\.ts$' },
    },
    {
      name: 'devices-through-its-face',
      severity: 'error',
      comment:
        "Issue 29: the console's side of the device wire (commands, reports, the outbox, credentials) is reached only through its face, packages/server/src/devices/index.ts; its own files and tests reach each other directly.",
      from: { pathNot: '^packages/server/src/devices/' },
      to: { path: '^packages/server/src/devices/', pathNot: '^packages/server/src/devices/index\\.ts$' },
    },
    {
      name: 'devices-imports-no-area',
      severity: 'error',
      comment:
        "The device wire stands below the areas, which reach it through its face: it imports none of them (a node's device and credential are served by the nodes area, which finds the node and asks the face). Its tests excepted.",
      from: { path: '^packages/server/src/devices/', pathNot: '\\.test\\.ts$' },
      to: { path: '^packages/server/src/(features/|app\\.ts|main\\.ts|seed)' },
    },
    {
      name: 'telemetry-imports-no-area-nor-simulator',
      severity: 'error',
      comment:
        "The telemetry store stands below the areas and the device wire, and apart from the demo's simulator (demo/, packages/fleet), which reaches it only as any sender would.",
      from: { path: '^packages/server/src/telemetry/', pathNot: '\\.test\\.ts$' },
      to: { path: ['^packages/server/src/(features/|devices/|demo/|app\\.ts|main\\.ts)', '^packages/fleet/'] },
    },
    {
      name: 'console-knows-no-simulator',
      severity: 'error',
      comment:
        "Issue 28: the console (its areas, platform, forecast, telemetry store and device wire) models the fleet from what it measures and reaches it only over MQTT; it never imports the simulated fleet (packages/fleet) nor the demo's builder, history backfill and weather service (demo/), tests that drive the simulator excepted.",
      from: {
        path: '^packages/server/src/(features|platform|forecast|telemetry|devices|db)/',
        pathNot: ['\\.test\\.ts$'],
      },
      to: { path: ['^packages/server/src/demo/', '^packages/fleet/'] },
    },
    {
      name: 'console-imports-no-fleet',
      severity: 'error',
      comment:
        "Issue 28: the simulated fleet (packages/fleet) is a device like any other, reached only over MQTT. No console code imports it; tests and benches that run it, and the demo (server demo/: it runs the fleet in the demo's process over the embedded broker, and bulk-loads its backfilled history with the same physics), excepted.",
      from: { path: '^(packages/(server|web|shared)|e2e)/', pathNot: ['\\.test\\.ts$', '^packages/server/src/demo/'] },
      to: { path: '^packages/fleet/' },
    },
    {
      name: 'fleet-imports-only-shared',
      severity: 'error',
      comment: 'Issue 28: the simulated fleet knows only the device protocol (packages/shared), never the console.',
      from: { path: '^packages/fleet/' },
      to: { path: '^(packages/(server|web)|e2e|bench)/' },
    },
    {
      name: 'no-composition-root',
      severity: 'error',
      comment: 'app.ts and main.ts compose the server; nothing else imports them (tests excepted).',
      from: { path: '^packages/server/src/', pathNot: ['^packages/server/src/(main\\.ts|cli/)', '\\.test\\.ts$', '^packages/server/src/test/'] },
      to: { path: '^packages/server/src/(app|main)\\.ts$' },
    },
    {
      name: 'migrations-self-contained',
      severity: 'error',
      comment: 'A migration means the same thing forever: it imports only Kysely and the migration helpers.',
      from: { path: '^packages/server/src/db/migrations/' },
      to: { dependencyTypesNot: ['npm'], pathNot: '^packages/server/src/db/migrations/' },
    },
    {
      name: 'web-lib-imports-no-area',
      severity: 'error',
      comment: 'Web lib/ and components/ are shared by every area and import none.',
      from: { path: '^packages/web/src/(lib|components)/' },
      to: { path: '^packages/web/src/(features|app)/' },
    },
    {
      name: 'shared-stands-alone',
      severity: 'error',
      comment: 'packages/shared is the contract: it imports neither the server nor the web app.',
      from: { path: '^packages/shared/' },
      to: { path: '^(packages/(server|web)|e2e|bench)/' },
    },
    {
      name: 'e2e-through-the-front-door',
      severity: 'error',
      comment:
        'End-to-end tests use only e2e/support and the shared contract, never the web or server source; except the helpers that start the server as a process (its front door) and sign in over HTTP, shared with the crash tests and the bench.',
      from: { path: '^e2e/' },
      to: { path: '^packages/(server|web)/', pathNot: '^packages/server/src/test/(start-server|wait|free-port|sign-in)\\.ts$' },
    },
    {
      name: 'app-through-index',
      severity: 'error',
      comment: 'The web app reaches an area through its index.ts, and its routes.tsx for the route table (pages load lazily from there).',
      from: { path: '^packages/web/src/(app/|main\\.tsx$)' },
      to: { path: '^packages/web/src/features/[^/]+/', pathNot: '^packages/web/src/features/[^/]+/(index\\.tsx?|routes\\.tsx)$' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'Virtual modules (virtual:pwa-register) are made by a Vite plugin at build time; geojson is a types-only package (@types/geojson).',
      from: {},
      to: { couldNotResolve: true, pathNot: ['^virtual:', '^geojson$'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs'],
    },
  },
};
