// The exports area as other areas see it: its routes, and the link to a node's export.

export { EXPORT_PATH, nodeExportLink } from './export-paths.ts';
export { exportsRoutes } from './routes.tsx';
