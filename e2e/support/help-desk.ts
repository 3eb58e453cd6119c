// A stand-in for a help desk's hosted contact form (Zendesk, Freshdesk): a page on another origin
// that lets itself be framed, for the support page's SUPPORT_FORM_URL.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HelpDesk {
  /** The form's address, on its own origin (another port of 127.0.0.1). */
  formUrl: string;
  stop(): Promise<void>;
}

export const HELP_DESK_HEADING = 'Help desk contact form';

export async function startHelpDesk(): Promise<HelpDesk> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html lang="en"><head><title>${HELP_DESK_HEADING}</title></head>` +
        `<body style="font-family: sans-serif; padding: 1rem"><h1>${HELP_DESK_HEADING}</h1>` +
        '<form><label>Your question <textarea name="q"></textarea></label><button>Submit</button></form></body></html>',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    formUrl: `http://127.0.0.1:${port}/hc/requests/new`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
