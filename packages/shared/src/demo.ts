/** The demo logins: seeded by the server in demo mode and listed on the login screen. */
export const DEMO_PASSWORD = 'Solar-Battery-42';

export const DEMO_ORGANISATIONS = [
  { key: 'retailer', name: 'Sunrise Energy', suborg_type: 'RETAILER' },
  { key: 'network', name: 'Coastal Grid Networks', suborg_type: 'NETWORK' },
  { key: 'installer', name: 'Bright Installations', suborg_type: 'INSTALLER' },
] as const;

export const OPERATOR_PERMISSIONS = ['fleet.node.any', 'fleet.powerstations.view', 'fleet.dispatches.view'];

export const DEMO_USERS = [
  {
    username: 'retailer',
    organisation: 'retailer',
    givenName: 'Rita',
    surname: 'Retailer',
    permissions: 'all',
    mfa: 'off',
    note: 'every permission, administrator',
  },
  {
    username: 'network',
    organisation: 'network',
    givenName: 'Nathan',
    surname: 'Network',
    permissions: 'all',
    mfa: 'off',
    note: 'every permission, administrator',
  },
  {
    username: 'installer',
    organisation: 'installer',
    givenName: 'Ingrid',
    surname: 'Installer',
    permissions: 'all',
    mfa: 'off',
    note: 'every permission, administrator',
  },
  {
    username: 'operator',
    organisation: 'retailer',
    givenName: 'Oscar',
    surname: 'Operator',
    permissions: OPERATOR_PERMISSIONS,
    mfa: 'off',
    note: 'nodes, VPP view and dispatch view only',
  },
  { username: 'mfa', organisation: 'retailer', givenName: 'Maya', surname: 'Factor', permissions: 'all', mfa: 'confirmed', note: 'as retailer, two-factor on' },
  {
    username: 'newmfa',
    organisation: 'retailer',
    givenName: 'Ned',
    surname: 'Newfactor',
    permissions: OPERATOR_PERMISSIONS,
    mfa: 'unconfigured',
    note: 'as operator, two-factor to set up',
  },
] as const;

/** The TOTP secret of the `mfa` demo user (160 bits, base32), for authenticator apps and tests. */
export const DEMO_MFA_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

export const demoEmail = (username: string) => `${username}@example.com`;
