import type { PlanType } from '@vpp/shared/plans/constants';
import type { Generated } from 'kysely';
import type { Epoch } from '../../db/schema.ts';

// The tables of plans and customers (migration 018); the augmentation adds them to the database's type.

export interface PlanTable {
  id: Generated<number>;
  organisation_id: number;
  name: string;
  name_key: string;
  plan_code: string;
  code_key: string;
  description: string;
  operational_network_uid: string;
  tariff_type: PlanType;
  start_date: string;
  created_at: Epoch;
  updated_at: Epoch;
}

export interface PlanVersionTable {
  id: Generated<number>;
  plan_id: number;
  start_date: string;
  /** JSON of the version's PlanPrices without its startDate. */
  prices: string;
  created_at: Epoch;
}

export interface CustomerAgreementTable {
  id: Generated<number>;
  organisation_id: number;
  node_id: number;
  version: number;
  signed_date: string;
  ended_date: string | null;
}

export interface CustomerPlanTable {
  id: Generated<number>;
  organisation_id: number;
  node_id: number;
  plan_id: number;
  start_date: string;
  end_date: string | null;
}

declare module '../../db/schema.ts' {
  interface DB {
    plans: PlanTable;
    plan_versions: PlanVersionTable;
    customer_agreements: CustomerAgreementTable;
    customer_plans: CustomerPlanTable;
  }
}
