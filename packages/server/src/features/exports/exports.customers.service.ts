import type { SuborgType } from '@vpp/shared/constants';
import type { Customer } from '@vpp/shared/customers/schemas';
import { stringify } from 'csv-stringify/sync';
import type { AppContext } from '../../platform/context.ts';
import { CSV_OPTIONS, csvRecords } from '../../platform/csv.ts';
import type { FileWriter } from '../../platform/downloads.ts';
import { customerPage } from '../customers/index.ts';
import { type PageHooks, yieldToLoop } from './exports.operational.service.ts';

// The customer export: the customer record's columns (spec 3 §3.8), as the API shows them to the
// organisation's type: the plan for retailers, the network information for networks.

type Column = [name: string, value: (c: Customer) => string | number | null];

const COMMON: Column[] = [
  ['nmi', (c) => c.nmi],
  ['deploymentUid', (c) => c.deploymentUid],
  ['streetNumber', (c) => c.streetNumber],
  ['streetName', (c) => c.streetName],
  ['city', (c) => c.city],
  ['state', (c) => c.state],
  ['postcode', (c) => c.postcode],
  ['addressLine1', (c) => c.addressLine1],
  ['addressLine2', (c) => c.addressLine2],
  ['lat', (c) => c.lat],
  ['long', (c) => c.long],
  ['batteryCapacityKwh', (c) => c.capacity],
  ['inverterMaxPowerKw', (c) => c.maxPower],
  ['installationStatus', (c) => c.installationStatus],
  ['agreementVersion', (c) => c.agreementVersion],
  ['agreementDate', (c) => c.agreementDate],
  ['capabilities', (c) => c.capabilities.join(';')],
];
const RETAILER: Column[] = [
  ['plan', (c) => c.currentTariff?.name ?? null],
  ['planCode', (c) => c.currentTariff?.planCode ?? null],
  ['planDiscount', (c) => c.currentTariff?.discount ?? null],
];
const NETWORK: Column[] = [
  ['network', (c) => c.information?.network?.name ?? null],
  ['region', (c) => c.information?.region ?? null],
  ['phases', (c) => c.information?.phases ?? null],
  ['solarKw', (c) => c.information?.solarKw ?? null],
  ['inverterKw', (c) => c.information?.inverterKw ?? null],
];

/** The customer CSV's columns for an organisation type. */
export function customerColumns(type: SuborgType): Column[] {
  return [...COMMON, ...(type === 'RETAILER' ? RETAILER : type === 'NETWORK' ? NETWORK : [])];
}

const PAGE = 1000;

/** Writes the customers (those in `only` when given) a page at a time; answers how many. */
export async function writeCustomers(
  ctx: AppContext,
  org: { id: number; type: SuborgType },
  only: ReadonlySet<number> | null,
  writer: FileWriter,
  hooks: PageHooks,
): Promise<number> {
  const columns = customerColumns(org.type);
  await writer.write(stringify([columns.map(([name]) => name)], CSV_OPTIONS));
  let written = 0;
  for (let offset = 0; ; offset += PAGE) {
    const { customers, total } = await customerPage(ctx, org.id, org.type, PAGE, offset);
    const rows = customers.filter((c) => !only || only.has(c.deploymentUid)).map((c) => columns.map(([, value]) => value(c) ?? ''));
    if (rows.length) await writer.write(csvRecords(rows));
    written += rows.length;
    await hooks.page(Math.min(total, offset + PAGE), Math.max(1, total));
    if (offset + PAGE >= total) break;
    await yieldToLoop();
  }
  return written;
}
