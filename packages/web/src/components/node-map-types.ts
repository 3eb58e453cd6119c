import type { NodeStatus } from '@vpp/shared';

export interface MapNode {
  id: number;
  lat: number;
  lng: number;
  displayStatus: NodeStatus;
  siteLabel: string | null;
}

export const STATUS_COLOURS: Record<NodeStatus, string> = {
  ONLINE: '#2f9e44',
  OFFLINE: '#e03131',
  AWAITING_CONTACT: '#f08c00',
  NOT_COMMISSIONED: '#868e96',
};

export interface NodeMapProps {
  nodes: MapNode[];
  onSelect?: (id: number) => void;
  height: number;
  zoom?: number;
  label?: string;
}
