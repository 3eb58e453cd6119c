import { z } from 'zod';
import { defineEndpoints, endpoint } from '../api/endpoint.ts';
import { okReply } from '../api/envelope.ts';
import { recordId } from '../api/inputs.ts';

const nodeIdParams = z.object({ id: recordId('node') });

/** Where devices connect: the broker's address as the console knows it (null when devices use an external broker the console does not name). */
const brokerSchema = z.object({ url: z.string().nullable(), port: z.number().int().nullable() });

/** A node's device: its MQTT username, whether a credential was issued, and the last message the console refused from it. */
export const nodeDeviceSchema = z.object({
  username: z.string(),
  credentialIssuedAt: z.number().int().nullable(),
  broker: brokerSchema,
  lastRejected: z.object({ ts: z.number().int(), reason: z.string() }).nullable(),
  rejectedCount: z.number().int(),
  droppedCount: z.number().int(),
});

/** A new device credential: shown once, stored only as a hash. */
export const deviceCredentialSchema = z.object({
  username: z.string(),
  secret: z.string(),
  issuedAt: z.number().int(),
  broker: brokerSchema,
});

/**
 * Who may issue or rotate a device credential: an administrator. The spec names no node edit
 * permission, and the node pages' own (fleet.node.any) is held by every viewer of a node.
 */
export const NODE_DEVICE_EDIT = 'fleet.administrator';

/** A node's device on the wire (docs/devices.md). */
export const deviceEndpoints = defineEndpoints('devices', {
  device: endpoint({
    method: 'GET',
    path: '/api/nodes/:id/device',
    summary: "The node's device: MQTT username, credential date, broker, and the last message refused from it",
    permission: 'fleet.node.any',
    params: nodeIdParams,
    reply: okReply(nodeDeviceSchema),
  }),
  issueCredential: endpoint({
    method: 'POST',
    path: '/api/nodes/:id/device/credential',
    summary: "Issue the node's device credential (at commissioning) or rotate it: the secret is shown once and the old one stops working",
    permission: NODE_DEVICE_EDIT,
    params: nodeIdParams,
    reply: okReply(deviceCredentialSchema),
  }),
});

export type NodeDevice = z.infer<typeof nodeDeviceSchema>;
export type DeviceCredential = z.infer<typeof deviceCredentialSchema>;
