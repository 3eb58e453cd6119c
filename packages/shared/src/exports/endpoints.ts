import { defineEndpoints, endpoint } from '../api/endpoint.ts';
import { EXPORT_VIEW } from './permissions.ts';
import {
  exportCreateBody,
  exportFileParams,
  exportFileQuery,
  exportJobDetailReply,
  exportJobReply,
  exportListQuery,
  exportListReply,
  exportTaskParams,
} from './schemas.ts';

/** Data exports (spec 2 §7 'export calls'): durable CSV jobs and their signed downloads. */
export const exportEndpoints = defineEndpoints('exports', {
  create: endpoint({
    method: 'POST',
    access: 'write',
    path: '/analysis/export-jobs',
    summary: 'Queues an operational or customer CSV export (export view; a VPP operational export also needs export edit)',
    permission: EXPORT_VIEW,
    body: exportCreateBody,
    reply: exportJobReply,
  }),
  list: endpoint({
    method: 'GET',
    access: 'read',
    path: '/analysis/export-jobs',
    summary: "The organisation's export jobs, newest first, paged (limit default 10)",
    permission: EXPORT_VIEW,
    query: exportListQuery,
    reply: exportListReply,
  }),
  detail: endpoint({
    method: 'GET',
    access: 'read',
    path: '/analysis/export-jobs/:id',
    summary: 'One export job with its details: per file a signed URL (minutes long), size and file name',
    permission: EXPORT_VIEW,
    params: exportTaskParams,
    reply: exportJobDetailReply,
  }),
  cancel: endpoint({
    method: 'POST',
    access: 'write',
    path: '/analysis/export-jobs/:id/cancel',
    summary: 'Cancels a PENDING or PROGRESS export of the organisation: it stops and keeps no files (its creator, or a user with export edit; others 403)',
    permission: EXPORT_VIEW,
    params: exportTaskParams,
    reply: exportJobReply,
  }),
  file: endpoint({
    method: 'GET',
    access: 'read',
    path: '/analysis/export-jobs/:id/files/:filename',
    summary: 'One CSV file of an export, through its signed URL (the token signs path and expiry); 403 when altered or expired',
    auth: 'public',
    permission: null,
    params: exportFileParams,
    query: exportFileQuery,
  }),
});
