import type { Endpoint } from '@vpp/shared/api/endpoint';
import type { AppContext } from './context.ts';
import type { App } from './http.ts';
import type { JobDefinition, Recurring } from './jobs.ts';

/** What the demo seed of one area hands to the next: the demo organisations by their key. */
export interface DemoSeed {
  orgs: Partial<Record<'retailer' | 'network' | 'installer', number>>;
}

/**
 * One area of the server, as the composition root sees it: its routes, its background jobs and
 * recurring jobs, and its part of the demo. Other areas use an area only through its index.ts.
 */
export interface FeatureModule {
  name: string;
  /** The area's endpoint maps from packages/shared: what its routes register, and what the generated access-control tests call. */
  endpoints?: readonly Readonly<Record<string, Endpoint>>[];
  routes?: (app: App) => void | Promise<void>;
  jobs?: readonly JobDefinition[];
  recurring?: readonly Recurring[];
  /** Adds the area's demo data on the first start of a demo server, after the areas before it. */
  seedDemo?: (ctx: AppContext, demo: DemoSeed) => Promise<void>;
}
