// The SQL of the fleet search's index, and the text it matches.

import { PostgresAdapter, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';

/** Text as the node search compares it: lower case, commas as spaces, single spaces ("King Street, Newtown" finds "king street newtown"). */
export const searchable = (text: string) => text.toLowerCase().replace(/,/g, ' ').replace(/\s+/g, ' ').trim();

// The site label is each organisation's own: it is matched on the fleet membership (searchMatches).
type Searchable = {
  id: number;
  street: string;
  suburb: string;
  state: string;
  postcode: string;
  nmi: string;
  serial_number: string;
  inverter_brand: string | null;
  battery_brand: string | null;
};

/** What the fleet search matches for every organisation: address, NMI, serial number, inverter and battery brands. */
export function searchTextOf(n: Omit<Searchable, 'id'>): string {
  return searchable([n.street, n.suburb, n.state, n.postcode, n.nmi, n.serial_number, n.inverter_brand, n.battery_brand].filter(Boolean).join(' '));
}

/** Stores (or replaces) what the search matches for each node. */
export async function writeSearchText(db: Database | Transaction<DB>, nodes: readonly Searchable[]) {
  if (!nodes.length) return;
  await db
    .insertInto('node_search')
    .values(nodes.map((n) => ({ node_id: n.id, search_text: searchTextOf(n) })))
    .onConflict((oc) => oc.column('node_id').doUpdateSet((eb) => ({ search_text: eb.ref('excluded.search_text') })))
    .execute();
}

/** Indexes nodes that joined the fleet, from their stored fields. */
export async function indexNodes(db: Database, ids: readonly number[]) {
  for (let i = 0; i < ids.length; i += 2000) {
    const rows = await db
      .selectFrom('nodes')
      .select(['id', 'street', 'suburb', 'state', 'postcode', 'nmi', 'serial_number', 'inverter_brand', 'battery_brand'])
      .where('id', 'in', ids.slice(i, i + 2000))
      .execute();
    await writeSearchText(db, rows);
  }
  // PostgreSQL plans the search from table statistics: refresh them after a bulk index.
  if (ids.length > 1000 && db.getExecutor().adapter instanceof PostgresAdapter) await sql`analyze node_search`.execute(db);
}
