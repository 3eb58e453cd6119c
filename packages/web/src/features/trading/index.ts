// The trading area as other areas see it: the VPP detail's Trading tab (loaded when first shown:
// import this module dynamically).

export { TradingPanel } from './trading-panel.tsx';
