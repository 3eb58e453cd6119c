import { deviceEndpoints } from '@vpp/shared/devices/endpoints';
import { nodeEndpoints } from '@vpp/shared/nodes/endpoints';
import type { FeatureModule } from '../../platform/module.ts';
import { nodesRoutes } from './nodes.routes.ts';

export { clearNodeMapViews, type MapPoint, nodeMapTile, nodeMapView } from './node-map-tiles.ts';
export { deploymentCounts, fleetNodes, latestReading, mapNodes, type NodeRow, nodeSite, searchMatches } from './nodes.repo.ts';
export { nodeReports } from './nodes.reports.service.ts';
export { nodeDetail, notifyNodeStatus, presentMapNode, presentNode, requireNode } from './nodes.service.ts';

/** Fleet monitoring and node detail, with the node's device and its credential (devices endpoints). */
export const nodesModule: FeatureModule = {
  name: 'nodes',
  endpoints: [nodeEndpoints, deviceEndpoints],
  routes: nodesRoutes,
};
