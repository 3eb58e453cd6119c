import { exportEndpoints as E } from '@vpp/shared/exports/endpoints';
import { caller } from '../../platform/guard.ts';
import { type App, route } from '../../platform/http.ts';
import * as service from './exports.service.ts';

const ok = { status: 'OK' as const };

export function exportsRoutes(app: App) {
  route(app, E.create, async (req) => ({ ...ok, data: await service.createExport(app.ctx, caller(req), req.body) }));
  route(app, E.list, async (req) => ({ ...ok, data: await service.listExports(app.ctx, caller(req), req.query) }));
  route(app, E.detail, async (req) => ({ ...ok, data: await service.exportDetail(app.ctx, caller(req), req.params.id) }));
  route(app, E.cancel, async (req) => ({ ...ok, data: await service.cancelExport(app.ctx, caller(req), req.params.id) }));
  route(app, E.file, async (req, reply) => {
    const file = await service.openFile(app.ctx, req.params.id, req.params.filename, req.query.token);
    return reply
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="${req.params.filename}"`)
      .header('Content-Length', String(file.size))
      .header('Cache-Control', 'no-store')
      .send(file.stream);
  });
}
