// Setup file of the server project (vitest.config.ts): `FAKE_NOW=2026-11-30T12:55:00Z npx vitest run
// --project server <file>` runs a file as at that time, its clock moving on from there. It is how a
// test that builds its times from the clock is checked at the hours that break such tests: a Sydney
// midnight (13:00 UTC in summer, 14:00 in winter), the first of a month there, a daylight-saving change.
// Only `Date.now` is shifted (the server reads the time through it, `nowS`): faking the `Date` class
// before the time-zone library loads made its zone arithmetic fall back to UTC. Timers stay real, so a
// test that waits for a condition still waits; a test that fakes `Date` itself is at that time until it
// restores the real clock.
if (process.env.FAKE_NOW) {
  const shift = Date.parse(process.env.FAKE_NOW) - Date.now();
  if (Number.isNaN(shift)) throw new Error(`FAKE_NOW must be an ISO 8601 time, not ${process.env.FAKE_NOW}.`);
  const realNow = Date.now.bind(Date);
  Date.now = () => realNow() + shift;
}
