// The one place the e2e tests write to the database. Why: the product has no way to make a
// notification on demand. The server stores them only when a simulated node goes offline or comes
// back (nodes.service notifyNodeStatus -> notifyOrganisation), at moments the seeded fleet decides,
// always stamped with the current time; the notification screens must also show yesterday's dates.
// What would remove it: a way to drive a node's connectivity through the product (an outage or a
// simulator control endpoint, e.g. POST /sim/nodes/{id}/connectivity in demo mode) for the wording
// and the markdown, plus a `createdAt` the server lets a test set (or a server clock offset) for the
// dates. Everything else about these notifications (read state) goes through the API.
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/** Stores unread notifications for a user straight into the server's SQLite file, `createdAt` in epoch seconds. */
export function insertNotificationsBySql(app: { dataDir: string }, username: string, items: { summary: string; body: string; createdAt: number }[]) {
  const db = new DatabaseSync(path.join(app.dataDir, 'console.db'));
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    const insert = db.prepare(
      'insert into notifications (organisation_id, user_id, summary, body, created_at) select organisation_id, id, ?, ?, ? from users where username = ?',
    );
    for (const n of items) {
      if (insert.run(n.summary, n.body, n.createdAt, username).changes !== 1) throw new Error(`no user ${username}`);
    }
  } finally {
    db.close();
  }
}
