export interface ChartSeries {
  label: string;
  values: (number | null)[];
  color: string;
  /** 'y' is the power axis (left), 'y2' the secondary axis (right). */
  axis: 'y' | 'y2';
  dash?: number[];
}

export interface TimeSeriesChartProps {
  x: number[];
  series: ChartSeries[];
  timeZone: string;
  start: number;
  end: number;
  stripes: number;
  unit: string;
  secondaryUnit?: string;
  height?: number;
  label: string;
}
