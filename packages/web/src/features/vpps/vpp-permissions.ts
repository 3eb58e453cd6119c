export { NODE_VIEW, VPP_EDIT, VPP_VIEW } from '@vpp/shared';
