import { KIT_MESSAGES as M } from '@vpp/shared/kit-designer/messages';
import { HEADER_CODES } from '@vpp/shared/kit-designer/rules';
import { MESSAGES } from '@vpp/shared/messages';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/harness.ts';
import { mailTo, readOutbox, runJobs } from '../../test/outbox.ts';
import { setOrderingEmail } from './kit-designer.repo.ts';

// Catalogue ids of migration 014.
const SH5 = 1; // Sungrow SH5.0RS, single-phase hybrid, solar on the inverter, SBR batteries 1-3
const SH10RT = 2; // three-phase hybrid
const PW2 = 6; // Tesla Powerwall 2 AC: all-in-one, solar on its own inverter (phases chosen), battery 7
const PW3 = 7; // Tesla Powerwall 3: all-in-one with solar inputs, battery 8
const VICTRON = 11; // battery inverter that takes no solar, batteries 6 and 12
const PRIMO = 12; // solar only: no batteries
const SBR096 = 1;
const PW2_BATTERY = 7;
const PW3_BATTERY = 8;

type Sys = { inverter: number | null; pvConnected: boolean; pvPhases: number | null; battery: number | null; existing?: boolean };
const sys = (patch: Partial<Sys> = {}): Sys => ({ inverter: SH5, pvConnected: true, pvPhases: null, battery: SBR096, ...patch });

describeEachDatabase('kit designer', (h) => {
  async function installer(permissions = ['fleet.kit_designer']) {
    const org = await h().org('INSTALLER', `Kits ${Math.random().toString(36).slice(2, 6)}`);
    const u = await h().user(org, { permissions });
    return { org, ...u, headers: await h().bearer(u.username) };
  }
  const post = async (headers: Record<string, string>, url: string, payload: object) => h().app.inject({ method: 'POST', url, headers, payload });
  const design = async (headers: Record<string, string>, gridPhases: number, systems: Record<string, Sys>) => {
    const res = await post(headers, '/ordering/design', { gridPhases, inverterSystems: systems });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };

  it('answers the catalogue, and the part of it that fits one inverter or one battery', async () => {
    const m = await installer();
    const all = (await h().app.inject({ method: 'GET', url: '/ordering/kit-options', headers: m.headers })).json().data;
    expect(all.inverterTypes).toHaveLength(13);
    expect(all.batteryTypes).toHaveLength(12);
    expect(all.inverterTypes.find((t: { id: number }) => t.id === PW2)).toMatchObject({
      displayName: 'Tesla Powerwall 2 AC (all-in-one)',
      allInOne: true,
      pvCompatible: null,
      phases: 1,
      compatibleBatteryTypes: [PW2_BATTERY],
      imageUrl: '/kit/all-in-one.svg',
    });
    expect(all.inverterTypes.find((t: { id: number }) => t.id === VICTRON).pvCompatible).toBe(false);
    const one = (await h().app.inject({ method: 'GET', url: `/ordering/kit-options?inverterTypeId=${SH10RT}`, headers: m.headers })).json().data;
    expect(one.inverterTypes.map((t: { id: number }) => t.id)).toEqual([SH10RT]);
    expect(one.batteryTypes.map((b: { code: string }) => b.code)).toEqual(['SBR096', 'SBR128', 'SBR160']);
    const byBattery = (await h().app.inject({ method: 'GET', url: `/ordering/kit-options?batteryTypeId=${SBR096}`, headers: m.headers })).json().data;
    expect(byBattery.inverterTypes.map((t: { id: number }) => t.id)).toEqual([SH5, SH10RT]);
    expect(byBattery.batteryTypes.map((b: { id: number }) => b.id)).toEqual([SBR096]);
    const missing = await h().app.inject({ method: 'GET', url: '/ordering/kit-options?inverterTypeId=999', headers: m.headers });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().data.message).toBe('No such inverter type.');
  });

  it('answers every rule’s error on its field', async () => {
    const m = await installer();
    const cases: [number, Sys, string | null, Partial<Record<keyof Sys, string>>][] = [
      [4, sys(), M.gridPhases, {}],
      [0, sys(), M.gridPhases, {}],
      [1, sys({ inverter: null }), null, { inverter: M.inverterRequired }],
      [1, sys({ inverter: 99 }), null, { inverter: M.inverterUnknown }],
      [1, sys({ inverter: SH10RT }), null, { inverter: M.inverterPhases }],
      [2, sys({ inverter: SH10RT }), null, { inverter: M.inverterPhases }],
      [1, sys({ inverter: PW3, battery: null }), null, { battery: M.batteryRequired }],
      [1, sys({ battery: 99 }), null, { battery: M.batteryUnknown }],
      [1, sys({ battery: PW2_BATTERY }), null, { battery: M.batteryIncompatible }],
      [1, sys({ inverter: PRIMO, battery: SBR096 }), null, { battery: M.batteryIncompatible }],
      [1, sys({ inverter: VICTRON, battery: 12 }), null, { pvConnected: M.pvNotCompatible }],
      [1, sys({ inverter: PW2, battery: PW2_BATTERY }), null, { pvPhases: M.pvPhasesRequired }],
      [3, sys({ pvPhases: 3 }), null, { pvPhases: M.pvPhasesNotApplicable }],
      [1, sys({ inverter: PW2, battery: PW2_BATTERY, pvConnected: false, pvPhases: 1 }), null, { pvPhases: M.pvPhasesWithoutSolar }],
      [1, sys({ inverter: PW2, battery: PW2_BATTERY, pvPhases: 2 }), null, { pvPhases: M.pvPhasesValue }],
      [1, sys({ inverter: PW2, battery: PW2_BATTERY, pvPhases: 3 }), null, { pvPhases: M.pvPhasesGrid }],
    ];
    for (const [gridPhases, s, gridError, systemErrors] of cases) {
      const data = await design(m.headers, gridPhases, { a: s });
      const label = JSON.stringify([gridPhases, s]);
      expect(data.order, label).toBeUndefined();
      expect(data.errors.gridPhases, label).toBe(gridError ?? undefined);
      expect(data.errors.inverterSystems, label).toEqual(Object.keys(systemErrors).length ? { a: systemErrors } : {});
    }
    // One error per field, on each system that has one, keyed by its id.
    const many = await design(m.headers, 1, { ok: sys(), bad: sys({ inverter: SH10RT, battery: PW2_BATTERY, pvPhases: 1 }) });
    expect(many.errors.inverterSystems).toEqual({ bad: { inverter: M.inverterPhases, battery: M.batteryIncompatible, pvPhases: M.pvPhasesNotApplicable } });
    // At most 3 solar-connected systems: the fourth's pvConnected.
    const four = await design(m.headers, 1, { s1: sys(), s2: sys(), s3: sys(), s4: sys() });
    expect(four.errors.inverterSystems).toEqual({ s4: { pvConnected: M.pvTooMany } });
    // 5 existing and 5 new at most.
    const six = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`n${i}`, sys({ pvConnected: false })]));
    expect((await design(m.headers, 1, six)).errors.gridPhases).toBe(M.tooManySystems);
    const five = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`n${i}`, sys({ pvConnected: false, existing: i < 5 })]));
    expect((await design(m.headers, 1, five)).order.lines[0].code).toBe('1L');
  });

  it('heads the order with the code of every combination of grid phases and solar-connected systems', async () => {
    const m = await installer();
    const seen: string[] = [];
    for (const grid of [1, 2, 3]) {
      for (let solar = 0; solar <= 3; solar++) {
        // Three systems, the first `solar` of them with solar connected.
        const systems = Object.fromEntries(Array.from({ length: 3 }, (_, i) => [`s${i}`, sys({ pvConnected: i < solar })]));
        const data = await design(m.headers, grid, systems);
        const header = data.order.lines[0];
        expect(header).toEqual({
          code: `${grid}L${solar ? `${solar}S` : ''}`,
          description: expect.stringContaining('grid meter'),
          qty: 1,
          poles: grid,
          solarPhases: null,
          gridPhases: grid,
        });
        seen.push(header.code);
      }
    }
    expect(seen).toEqual([...HEADER_CODES]);
  });

  it('orders a three-phase site with a new hybrid and an existing all-in-one: header, CTs, comms and the new parts', async () => {
    const m = await installer();
    const data = await design(m.headers, 3, {
      hybrid: sys({ inverter: SH10RT }),
      aio: sys({ inverter: PW2, battery: PW2_BATTERY, pvPhases: 3, existing: true }),
    });
    expect(data.errors).toBeUndefined();
    expect(data.order.lines).toEqual([
      {
        code: '3L2S',
        description: 'Monitoring header: three-phase grid meter with 2 solar-connected systems',
        qty: 1,
        poles: 3,
        solarPhases: null,
        gridPhases: 3,
      },
      { code: 'CT16-3P', description: '16 mm² CT clamp set, 3-pole, for the grid connection', qty: 2, poles: 3, solarPhases: null, gridPhases: 3 },
      { code: 'COMMS-RS485', description: 'Inverter communications cable, RS485, 10 m', qty: 2, poles: null, solarPhases: null, gridPhases: null },
      { code: 'SH10RT', description: 'Sungrow SH10RT hybrid (10 kW, three-phase)', qty: 1, poles: 3, solarPhases: 3, gridPhases: 3 },
      { code: 'SBR096', description: 'Sungrow SBR096 (9.6 kWh)', qty: 1, poles: null, solarPhases: null, gridPhases: null },
      { code: 'CT16-1P', description: '16 mm² CT clamp set, 1-pole, for an inverter circuit', qty: 1, poles: 1, solarPhases: null, gridPhases: 3 },
      { code: 'CT16-3P-PV', description: '16 mm² CT clamp set, 3-pole, for a solar inverter circuit', qty: 1, poles: 3, solarPhases: 3, gridPhases: 3 },
    ]);
    expect(data.order.referenceNotes).toEqual([
      'Header 3L2S: three-phase grid connection, 2 solar-connected systems.',
      'System 1 (new): Sungrow SH10RT hybrid (10 kW, three-phase), battery Sungrow SBR096 (9.6 kWh), solar connected to the inverter.',
      'System 2 (existing, metering only): Tesla Powerwall 2 AC (all-in-one), battery Tesla Powerwall 2 (13.5 kWh), solar connected on its own three-phase inverter.',
    ]);
    // A battery inverter with Not Connected, and no systems at all.
    const none = await design(m.headers, 1, { v: sys({ inverter: VICTRON, battery: null, pvConnected: false }) });
    expect(none.order.referenceNotes[1]).toBe('System 1 (new): Victron MultiPlus-II 48/5000 (battery inverter), battery Not Connected, solar not connected.');
    expect((await design(m.headers, 2, {})).order.lines.map((l: { code: string }) => l.code)).toEqual(['2L', 'CT16-2P']);
  });

  it('e-mails the order table to the user and the organisation’s ordering address', async () => {
    const m = await installer();
    await setOrderingEmail(h().ctx.db, m.org, 'orders@kits.example.test');
    const d = { gridPhases: 3, inverterSystems: { a: sys({ inverter: SH10RT }), b: sys({ inverter: PW3, battery: PW3_BATTERY }) } };
    const { order } = await design(m.headers, d.gridPhases, d.inverterSystems);
    const res = await post(m.headers, '/ordering/email', { order, design: d, referenceNotes: 'Job 4411 <Smith>, 12 Wattle St' });
    expect(res.statusCode, res.body).toBe(200);
    const user = await h().ctx.db.selectFrom('users').select('email').where('id', '=', m.id).executeTakeFirstOrThrow();
    expect(res.json()).toEqual({ status: 'OK', data: { sentTo: [user.email, 'orders@kits.example.test'] } });
    for (const to of [user.email, 'orders@kits.example.test']) {
      const mails = await mailTo(h().ctx, to);
      expect(mails).toHaveLength(1);
      expect(mails[0].subject).toMatch(/^Kit order 3L2S from /);
      const text = mails[0].text;
      expect(text).toMatch(/\nCode\s+Description\s+Qty\s+Poles\s+Solar phases\s+Grid phases\n/);
      expect(text).toMatch(/\n3L2S\s+Monitoring header: three-phase grid meter with 2 solar-connected systems\s+1\s+3\s+3\n/);
      expect(text).toMatch(/\nSH10RT\s+Sungrow SH10RT hybrid \(10 kW, three-phase\)\s+1\s+3\s+3\s+3\n/);
      expect(text).toMatch(/\n1707000-11-K\s+Tesla Powerwall 3 \(all-in-one, solar inputs\)\s+1\s+1\s+1\s+3\n/);
      expect(text).toContain(
        '- System 2 (new): Tesla Powerwall 3 (all-in-one, solar inputs), battery Tesla Powerwall 3 (13.5 kWh), solar connected to the inverter.',
      );
      expect(text).toContain('Reference notes:\nJob 4411 <Smith>, 12 Wattle St');
    }
    const raw = (await readOutbox(h().ctx)).filter((x) => x.to === user.email);
    expect(raw).toHaveLength(1);
  });

  it('sends only to the user when the organisation has no ordering address', async () => {
    const m = await installer();
    const d = { gridPhases: 1, inverterSystems: {} };
    const { order } = await design(m.headers, 1, {});
    const res = await post(m.headers, '/ordering/email', { order, design: d });
    expect(res.json().data.sentTo).toHaveLength(1);
    await runJobs(h().ctx);
  });

  it('refuses an order that the design does not give, and a design with errors, sending nothing', async () => {
    const m = await installer();
    const d = { gridPhases: 3, inverterSystems: { a: sys({ inverter: SH10RT }) } };
    const { order } = await design(m.headers, 3, d.inverterSystems);
    const before = (await readOutbox(h().ctx)).length;
    const changed = { ...order, lines: order.lines.map((l: { qty: number }, i: number) => (i === 0 ? { ...l, qty: 50 } : l)) };
    for (const payload of [
      { order: changed, design: d },
      { order, design: { gridPhases: 1, inverterSystems: d.inverterSystems } },
    ]) {
      const res = await post(m.headers, '/ordering/email', payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ status: 'ERROR', error: 'bad_request', data: { message: M.orderMismatch } });
    }
    await runJobs(h().ctx);
    expect((await readOutbox(h().ctx)).length).toBe(before);
  });

  it('answers 400 naming the field of a malformed design or e-mail', async () => {
    const m = await installer();
    const good = { gridPhases: 1, inverterSystems: { a: sys() } };
    for (const [url, payload, message] of [
      ['/ordering/design', { ...good, gridPhases: 'three' }, 'gridPhases must be a whole number from 0 to 9.'],
      ['/ordering/design', { ...good, gridPhases: 1.5 }, 'gridPhases must be a whole number from 0 to 9.'],
      ['/ordering/design', { ...good, inverterSystems: [] }, 'inverterSystems must be an object of inverter systems keyed by id.'],
      ['/ordering/design', { ...good, inverterSystems: { 'a b': sys() } }, 'inverterSystems keys must be 1 to 40 letters, digits, _ or -.'],
      ['/ordering/design', { ...good, inverterSystems: { a: { ...sys(), inverter: 'SH5' } } }, 'inverter must be whole numbers from 1 to 2147483647.'],
      ['/ordering/design', { ...good, inverterSystems: { a: { ...sys(), battery: -1 } } }, 'battery must be whole numbers from 1 to 2147483647.'],
      ['/ordering/design', { ...good, inverterSystems: { a: { ...sys(), pvConnected: 'yes' } } }, 'pvConnected must be true or false.'],
      ['/ordering/design', { ...good, inverterSystems: { a: { ...sys(), pvPhases: 12 } } }, 'pvPhases must be a whole number from 0 to 9.'],
      [
        '/ordering/design',
        { ...good, inverterSystems: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`s${i}`, sys()])) },
        'inverterSystems can hold at most 10 systems.',
      ],
      [
        '/ordering/email',
        { order: { lines: [], referenceNotes: [] }, design: good, referenceNotes: 'x'.repeat(2001) },
        'referenceNotes can have at most 2000 characters.',
      ],
    ] as const) {
      const res = await post(m.headers, url, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 200)).toBe(400);
      expect(res.json().data.message, JSON.stringify(payload).slice(0, 200)).toContain(message);
    }
  });

  it('answers 403 without fleet.kit_designer, and opens to either spelling', async () => {
    const without = await installer(['fleet.node.any', 'fleet.powerstations.view']);
    for (const [method, url] of [
      ['GET', '/ordering/kit-options'],
      ['POST', '/ordering/design'],
      ['POST', '/ordering/email'],
    ] as const) {
      const res = await h().app.inject({
        method,
        url,
        headers: without.headers,
        payload: method === 'POST' ? { gridPhases: 1, inverterSystems: {} } : undefined,
      });
      expect(res.statusCode, url).toBe(403);
      expect(res.json().data.message).toBe(MESSAGES.notAuthorized);
    }
    for (const p of ['fleet.kitDesigner', 'fleet.kit_designer']) {
      const m = await installer([p]);
      expect((await h().app.inject({ method: 'GET', url: '/ordering/kit-options', headers: m.headers })).statusCode, p).toBe(200);
    }
  });
});
