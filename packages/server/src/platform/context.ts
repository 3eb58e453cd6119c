import path from 'node:path';
import type { Config } from '../config.ts';
import type { Database, DialectName } from '../db/database.ts';
import { TelemetryStore } from '../telemetry/index.ts';
import { type Captcha, createCaptcha } from './captcha.ts';
import { type FileStore, localFileStore } from './downloads.ts';
import { deriveKey, loadMasterSecret } from './secrets.ts';

/** What every route and service reaches: settings, the database and the keys. */
export interface AppContext {
  config: Config;
  db: Database;
  dialect: DialectName;
  keys: { access: Buffer; device: Buffer; portal: Buffer; download: Buffer };
  captcha: Captcha;
  telemetry: TelemetryStore;
  /** Generated files (exports, invoices), under DATA_DIR/files. */
  files: FileStore;
  /** Where devices connect (docs/devices.md): set once the device link has started; null fields when unknown. */
  deviceBroker: { url: string | null; port: number | null };
}

/** A broker URL without its credentials, as devices may be shown it. */
function redactUrl(u: string): string {
  const url = new URL(u);
  url.username = '';
  url.password = '';
  return url.toString().replace(/\/$/, '');
}

export async function createContext(config: Config, db: Database, dialect: DialectName): Promise<AppContext> {
  const master = await loadMasterSecret(db, config.SECRET_KEY);
  return {
    config,
    db,
    dialect,
    keys: {
      access: deriveKey(master, 'access-token'),
      device: deriveKey(master, 'remember-device'),
      portal: deriveKey(master, 'inverter-portal'),
      download: deriveKey(master, 'download-link'),
    },
    captcha: createCaptcha(db, deriveKey(master, 'captcha').toString('base64url'), config.CAPTCHA_COST),
    telemetry: new TelemetryStore(db, dialect, config.TELEMETRY_RAW_RETENTION_DAYS * 86400),
    files: localFileStore(path.join(config.dataDir, 'files')),
    deviceBroker: { url: config.MQTT_URL ? redactUrl(config.MQTT_URL) : null, port: null },
  };
}
