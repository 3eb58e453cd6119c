/**
 * Whether an error is a unique index refusing a row, from either driver: PostgreSQL's
 * unique_violation (SQLSTATE 23505) or SQLite's SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY. Two
 * requests that check a name is free and then both insert it meet here: the later one is refused
 * by the index, and its caller answers 409 (issue 32, item 4).
 */
export function isUniqueViolation(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; errcode?: unknown };
  if (e.code === '23505') return true;
  return e.code === 'ERR_SQLITE_ERROR' && (e.errcode === 2067 || e.errcode === 1555);
}

/**
 * Runs a write; a unique index refusing it becomes the refusal `refuse` gives (it may look again at
 * what the winning request stored, to say what is taken). Any other failure passes through.
 */
export async function onDuplicate<T>(write: () => Promise<T>, refuse: () => Promise<Error> | Error): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    throw await refuse();
  }
}
