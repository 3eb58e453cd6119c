/** The detail page of a VPP on its map tab, where creating, editing and renaming land (spec 2 §4). */
export const vppMapPath = (id: number) => `/virtual-power-plants/manage/${id}?tab=MAP&limit=10&offset=0`;
/** The edit screen, where creating a manual VPP lands. */
export const vppEditPath = (id: number) => `/virtual-power-plants/manage/${id}/edit?limit=10&offset=0`;
export const VPP_LIST_PATH = '/virtual-power-plants/manage?limit=10&offset=0';
