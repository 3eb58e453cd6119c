// Creates the first administrator of a production install (DEMO=false):
//   npm run create-admin -- --organisation "Acme Energy" --type RETAILER --username admin --email admin@acme.example \
//     --given-name Ada --surname Admin
// The password is read from ADMIN_PASSWORD, or asked for on the terminal.
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { describePasswordFailures, passwordFailures } from '@vpp/shared/auth/password-rules';
import { SUBORG_TYPES, type SuborgType } from '@vpp/shared/constants';
import { PERMISSIONS } from '@vpp/shared/permissions/registry';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { createOrganisation, createUser } from '../features/users/index.ts';
import { hashPassword } from '../platform/passwords.ts';

const { values } = parseArgs({
  options: {
    organisation: { type: 'string' },
    type: { type: 'string', default: 'RETAILER' },
    username: { type: 'string' },
    email: { type: 'string' },
    'given-name': { type: 'string', default: '' },
    surname: { type: 'string', default: '' },
  },
});

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

if (!values.organisation || !values.username || !values.email) fail('Give --organisation, --username and --email.');
if (!SUBORG_TYPES.includes(values.type as SuborgType)) fail(`--type must be one of ${SUBORG_TYPES.join(', ')}.`);
let password = process.env.ADMIN_PASSWORD;
if (!password) {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  password = await rl.question('Password for the administrator: ');
  rl.close();
}
const failures = passwordFailures(password);
if (failures.length) fail(describePasswordFailures(failures));

const config = loadConfig();
const handle = await openDatabase({ url: config.DATABASE_URL, dataDir: config.dataDir, schema: config.DATABASE_SCHEMA });
const existing = await handle.db.selectFrom('users').select('id').where('username', '=', values.username.toLowerCase()).executeTakeFirst();
if (existing) fail(`A user named ${values.username} already exists.`);
const org =
  (await handle.db.selectFrom('organisations').select('id').where('name', '=', values.organisation).executeTakeFirst())?.id ??
  (await createOrganisation(handle.db, values.organisation, values.type as SuborgType));
const id = await createUser(handle.db, {
  organisationId: org,
  username: values.username,
  email: values.email,
  givenName: values['given-name'] ?? '',
  surname: values.surname ?? '',
  passwordHash: await hashPassword(password),
  permissions: PERMISSIONS.map((p) => p.name),
});
console.info(`Created administrator ${values.username} (user ${id}) in ${values.organisation}.`);
await handle.close();
