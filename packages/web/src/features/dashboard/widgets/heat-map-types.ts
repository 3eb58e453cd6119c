// The heat map's colours, legend and text alternative live in the shared package: the server bins
// and colours the same hexagons (spec 2 §9).
export * from '@vpp/shared/dashboard/voltage';
