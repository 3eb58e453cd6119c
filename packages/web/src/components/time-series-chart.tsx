import { Box, Button, ScrollArea, Table } from '@mantine/core';
import { useId, useState } from 'react';
import { loadable } from '../lib/loadable.tsx';
import { LoadingSkeleton } from './loading-skeleton.tsx';
import { chartTable, type TimeSeriesChartProps } from './time-series-chart-types.ts';

export type { ChartSeries, TimeSeriesChartProps } from './time-series-chart-types.ts';

// uPlot loads with the first screen that draws a chart; a screen asks for it early (preloadChart)
// so that it is there when the data arrives.
const TimeSeriesChartCanvas = loadable(
  async () => (await import('./time-series-chart-canvas.tsx')).default,
  (props: TimeSeriesChartProps) => <LoadingSkeleton variant="chart" height={props.height ?? 380} label={`Loading ${props.label}`} />,
);
/** Starts loading the chart's code, for a screen that will draw one once its data arrives. */
export const preloadChart = () => void TimeSeriesChartCanvas.preload().catch(() => undefined);

/** The chart's text alternative (WCAG 1.1.1): the plotted series as a table, time and one column per series. */
function ChartDataTable(props: TimeSeriesChartProps) {
  const { head, rows } = chartTable(props);
  return (
    <ScrollArea.Autosize mah={320} type="auto">
      <Table striped withTableBorder stickyHeader fz="xs" aria-label={`${props.label} data`}>
        <Table.Thead>
          <Table.Tr>
            {head.map((h) => (
              <Table.Th key={h} scope="col">
                {h}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={r.ts}>
              {r.cells.map((c, j) =>
                j === 0 ? (
                  <Table.Th key={head[j]} scope="row" fw="normal">
                    {c}
                  </Table.Th>
                ) : (
                  <Table.Td key={head[j]}>{c}</Table.Td>
                ),
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea.Autosize>
  );
}

/**
 * A canvas time-series chart (uPlot): power on the left axis, an optional secondary quantity on
 * the right, times shown in `timeZone`, zebra stripes splitting [start, end) into `stripes` bands,
 * and the graph padding of spec 2 §9 (top 5, left 30, right 30, bottom 50).
 * While uPlot loads, an empty box of the chart's height holds its place. Under the chart, a
 * "Show data table" button shows the plotted series as a table (the chart's text alternative).
 */
export function TimeSeriesChart(props: TimeSeriesChartProps) {
  const [table, setTable] = useState(false);
  const tableId = useId();
  return (
    <Box>
      <TimeSeriesChartCanvas {...props} />
      <Button variant="subtle" size="compact-sm" mt={4} aria-expanded={table} aria-controls={tableId} onClick={() => setTable((t) => !t)}>
        {table ? 'Hide data table' : 'Show data table'}
      </Button>
      <Box id={tableId} mt={table ? 'xs' : 0}>
        {table && <ChartDataTable {...props} />}
      </Box>
    </Box>
  );
}
