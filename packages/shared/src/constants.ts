/** The application version shown on the settings screen and answered by /meta.json. */
export const APP_VERSION = '2025.7.1';
export const APP_TITLE = 'VPP Console';

export const SUBORG_TYPES = ['RETAILER', 'NETWORK', 'INSTALLER'] as const;
export type SuborgType = (typeof SUBORG_TYPES)[number];

/** Time zones offered on the settings screen, with the labels of spec 1 §2. */
export const TIMEZONE_CHOICES = [
  { value: 'Australia/Perth', label: 'Perth (GMT+08:00)' },
  { value: 'Australia/Darwin', label: 'Darwin (GMT+09:30)' },
  { value: 'Australia/Brisbane', label: 'Brisbane (GMT+10:00)' },
  { value: 'Australia/Adelaide', label: 'Adelaide (GMT+10:30)' },
  { value: 'Australia/Hobart', label: 'Hobart (GMT+11:00)' },
  { value: 'Australia/Sydney', label: 'Sydney and Melbourne (GMT+11:00)' },
] as const;

export const ALERT_EMAIL_FREQUENCIES = ['NEVER', 'NOW', 'HOURLY', 'DAILY', 'WEEKLY'] as const;
export type AlertEmailFrequency = (typeof ALERT_EMAIL_FREQUENCIES)[number];

export const AUSTRALIAN_STATES = ['ACT', 'NSW', 'NT', 'QLD', 'SA', 'TAS', 'VIC', 'WA'] as const;
export type AustralianState = (typeof AUSTRALIAN_STATES)[number];

/** Token refresh runs this many seconds before the access token expires. */
export const TOKEN_REFRESH_BEFORE_S = 300;
/** Remember-this-browser skips two-factor for two weeks. */
export const REMEMBER_DEVICE_S = 14 * 24 * 3600;
export const TOTP_DIGITS = 6;
export const PASSWORD_MIN_LENGTH = 8;

export const DEFAULT_PAGE_SIZE = 10;
export const PAGE_SIZES = [10, 50, 75, 100, 150, 200] as const;

export const ALL_FLEET_NODES = '__ALL_FLEET_NODES__';

export const LOGIN_STATUSES = ['FETCHING', 'LOGGED_IN', 'ERROR', 'LOGGED_OUT', 'BAD_AUTH', 'TOTP_REQUIRED', 'TOTP_UNCONFIGURED'] as const;
export type LoginStatus = (typeof LOGIN_STATUSES)[number];
