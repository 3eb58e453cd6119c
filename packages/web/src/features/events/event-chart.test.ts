import type { DispatchPredictions, PredictionPoint } from '@vpp/shared/dispatches/schemas';
import { describe, expect, it } from 'vitest';
import { predictionsOf } from '../../test/event-fixtures.ts';
import { forecastErrorText, predictionSeries } from './event-chart.tsx';

const point = (meterPower: number | null, soc: number | null = null): PredictionPoint => ({
  solarPower: null,
  housePower: null,
  batteryPower: null,
  meterPower,
  remainingCharge: null,
  soc,
});

const predictions = (patch: Partial<DispatchPredictions>) => predictionsOf(3, patch);

describe('the prediction graph series (spec 3 §9)', () => {
  it('draws the prediction and the prediction with the dispatch in kW, and charge on the right without prices', () => {
    const s = predictionSeries(
      predictions({
        prediction: { 1800: point(2, 50), 0: point(null), 2100: point(-3, 40) },
        adjustedPrediction: { 1800: point(1, 45), 2100: point(-8, 30) },
      }),
    );
    expect(s?.x).toEqual([0, 1800, 2100]);
    expect(s?.unit).toBe('kW');
    expect(s?.secondaryUnit).toBe('%');
    expect(s?.series.map((x) => x.label)).toEqual(['Prediction', 'With dispatch', 'State of charge']);
    expect(s?.series[0].values).toEqual([null, 2, -3]);
    expect(s?.series[1].values).toEqual([null, 1, -8]);
    expect(s?.series[2].values).toEqual([null, 45, 30]);
  });

  it('switches the whole power axis to MW when a value passes 1000 kW', () => {
    const s = predictionSeries(predictions({ prediction: { 0: point(-1500), 300: point(200) } }));
    expect(s?.unit).toBe('MW');
    expect(s?.series[0].values).toEqual([-1.5, 0.2]);
  });

  it('draws the 30-minute price on the right, each 5-minute point in its half hour', () => {
    const s = predictionSeries(
      predictions({
        prediction: { 1800: point(1), 2100: point(1), 3600: point(1) },
        market: { region: 'NSW1', multipleRegions: false, step: 1800, rrp: { 1800: 95.5, 3600: 120 } },
      }),
    );
    expect(s?.secondaryUnit).toBe('$/MWh');
    expect(s?.series[2]).toMatchObject({ label: 'Price', values: [95.5, 95.5, 120] });
  });

  it('has nothing to draw for a day without any value', () => {
    expect(predictionSeries(predictions({ prediction: { 0: point(null) } }))).toBeNull();
  });
});

describe('the forecast error beside the prediction', () => {
  const figures = {
    start: 0,
    end: 86_400,
    intervals: 288,
    medianAbsoluteErrorKw: 0.716,
    relativeErrorPercent: 1.2,
    homeMedianAbsoluteErrorKw: 0.084,
    homeRelativeErrorPercent: 13.5,
  };

  it('reads the median absolute error at 5 minutes and its share of the net demand', () => {
    expect(forecastErrorText(figures)).toBe('Forecast error over the last day: 0.72 kW median at 5 minutes (1.2% of net demand).');
  });

  it('says when there is nothing yet to measure it on', () => {
    expect(forecastErrorText({ ...figures, intervals: 0, medianAbsoluteErrorKw: null, relativeErrorPercent: null })).toBe(
      'Forecast error: not yet measured (no reporting history over the last day).',
    );
  });
});
