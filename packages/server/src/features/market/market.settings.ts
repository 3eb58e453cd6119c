import { DEMO_ORGANISATIONS } from '@vpp/shared/demo';
import { z } from 'zod';
import { defineSettings } from '../../config.ts';

// Market prices: who may import them through the API (docs/operations.md#market-prices).
const marketSettings = {
  MARKET_IMPORT_ORGANISATION: z.string().trim().min(1).max(200).optional(),
};
defineSettings(
  marketSettings,
  // Prices are every organisation's: in the demo the retailer runs the deployment.
  (c) => ({ marketImportOrganisation: c.MARKET_IMPORT_ORGANISATION ?? (c.demo ? DEMO_ORGANISATIONS[0].name : null) }),
);

declare module '../../config.ts' {
  interface AreaSettings extends z.infer<z.ZodObject<typeof marketSettings>> {
    /** The organisation whose administrators may import market prices through the API; none: the command line only. */
    marketImportOrganisation: string | null;
  }
}
