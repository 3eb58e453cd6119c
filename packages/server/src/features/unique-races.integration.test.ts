import { PLAN_MESSAGES } from '@vpp/shared/plans/messages';
import { USER_MESSAGES } from '@vpp/shared/users/schemas';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../test/harness.ts';

/** How many requests race for one name. */
const RACERS = 12;

const plan = (name: string, planCode: string) => ({
  name,
  planCode,
  tariffType: 'FLAT_RATE',
  operationalNetworkUid: 'ausgrid',
  startDate: '2026-01-01',
  dailyCharge: '1',
  feedInTariff: '0.05',
  description: 'A racing plan',
  rates: [{ label: 'Base Rate', isBaseRate: true, blocks: [{ onset: '0', price: '0.25' }], periods: [] }],
});

// Issue 32, item 4: requests racing for the same unique name (sent at once, so that their checks
// all pass before any insert) answer 200 for one of them and 409 with the clear message for the
// others, never a 500, and exactly one row holds the name, on both databases.
describeEachDatabase('unique races', (h) => {
  let auth: { authorization: string };
  let org: number;
  beforeAll(async () => {
    org = await h().org('RETAILER');
    auth = await h().bearer((await h().user(org)).username);
  });

  /** Sends the requests at once; answers their statuses and bodies. */
  const race = async (requests: (() => Promise<{ statusCode: number; json(): { data?: { message?: string; errors?: object } } }>)[]) =>
    (await Promise.all(requests.map((r) => r()))).map((res) => ({ status: res.statusCode, body: res.json() }));

  const expectOneWinner = (answers: Awaited<ReturnType<typeof race>>, message: string) => {
    expect(answers.map((a) => a.status).filter((s) => s !== 200 && s !== 409)).toEqual([]);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status === 409)) expect(a.body.data?.message).toBe(message);
  };

  it('creates a user (username and e-mail address) once', async () => {
    const email = 'racing.user@example.test';
    const answers = await race(
      Array.from(
        { length: RACERS },
        (_, i) => () =>
          h().app.inject({ method: 'POST', url: '/api/users', headers: auth, payload: { givenName: 'Race', surname: `R${i}`, email, permissions: [] } }),
      ),
    );
    expectOneWinner(answers, USER_MESSAGES.emailTaken);
    const rows = await h()
      .ctx.db.selectFrom('users')
      .select('id')
      .where((eb) => eb.or([eb('email', '=', email), eb('username', '=', email)]))
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('gives an e-mail address to one of the users whose edits race for it', async () => {
    const email = 'racing.edit@example.test';
    const users = await Promise.all(Array.from({ length: RACERS }, () => h().user(org, { permissions: [] })));
    const answers = await race(
      users.map(
        (u) => () =>
          h().app.inject({ method: 'PUT', url: `/api/users/${u.id}`, headers: auth, payload: { givenName: 'Race', surname: 'Edit', email, permissions: [] } }),
      ),
    );
    expectOneWinner(answers, USER_MESSAGES.emailTaken);
    expect(await h().ctx.db.selectFrom('users').select('id').where('email', '=', email).execute()).toHaveLength(1);
  });

  it('creates a plan code once, and a plan name once', async () => {
    for (const [field, message, bodyOf] of [
      ['planCode', PLAN_MESSAGES.duplicateCode, (i: number) => plan(`Racing plan ${i}`, 'RACE-CODE')],
      ['name', PLAN_MESSAGES.duplicateName, (i: number) => plan('Racing plan', `RACE-${i}`)],
    ] as const) {
      const answers = await race(
        Array.from({ length: RACERS }, (_, i) => () => h().app.inject({ method: 'POST', url: '/contracts/plan', headers: auth, payload: bodyOf(i) })),
      );
      expectOneWinner(answers, PLAN_MESSAGES.correctErrors);
      for (const a of answers.filter((x) => x.status === 409)) expect(a.body.data?.errors).toMatchObject({ [field]: message });
      const rows = await h()
        .ctx.db.selectFrom('plans')
        .select('id')
        .where('organisation_id', '=', org)
        .where(field === 'planCode' ? 'code_key' : 'name_key', '=', field === 'planCode' ? 'race-code' : 'racing plan')
        .execute();
      expect(rows, field).toHaveLength(1);
    }
  });
});
