// The console's forecast of its homes (issue 28): used by the dispatch and curtailment predictions,
// the outage orders and the dashboard's weather. It reads the telemetry store and the weather the
// console keeps, and knows nothing of how the simulated fleet works.
export { BATTERY_ONE_WAY_EFFICIENCY, type ExpectedPower, type ModelNode, SLOT_S } from './forecast.model.ts';
export { type ForecastErrorFigures, forecastError, forecastPower, WeatherSeries } from './forecast.service.ts';
export { saveWeather, type WeatherTable } from './weather.repo.ts';
