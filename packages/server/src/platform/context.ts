import type { Config } from '../config.ts';
import type { Database, DialectName } from '../db/database.ts';
import { TelemetryStore } from '../fleet/telemetry.ts';
import { type Captcha, createCaptcha } from './captcha.ts';
import { deriveKey, loadMasterSecret } from './secrets.ts';

/** What every route and service reaches: settings, the database and the keys. */
export interface AppContext {
  config: Config;
  db: Database;
  dialect: DialectName;
  keys: { access: Buffer; device: Buffer; portal: Buffer };
  captcha: Captcha;
  telemetry: TelemetryStore;
}

export async function createContext(config: Config, db: Database, dialect: DialectName): Promise<AppContext> {
  const master = await loadMasterSecret(db, config.SECRET_KEY);
  return {
    config,
    db,
    dialect,
    keys: { access: deriveKey(master, 'access-token'), device: deriveKey(master, 'remember-device'), portal: deriveKey(master, 'inverter-portal') },
    captcha: createCaptcha(db, deriveKey(master, 'captcha').toString('base64url'), config.CAPTCHA_COST),
    telemetry: new TelemetryStore(db, dialect, config.TELEMETRY_RAW_RETENTION_DAYS * 86400),
  };
}
