import { Alert, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { DISPATCH_POWER_FACTOR } from '@vpp/shared/dispatches/permissions';
import { dispatchPredictionStart, PREDICTION_HORIZON_S } from '@vpp/shared/dispatches/rules';
import type { DispatchDetail, DispatchMeasurement } from '@vpp/shared/dispatches/schemas';
import { formatEnergy, formatPower } from '@vpp/shared/format';
import { canSeeMarketData } from '@vpp/shared/market/rules';
import { openadrEventId } from '@vpp/shared/openadr/schemas';
import type { ReactNode } from 'react';
import { DelayedLoader } from '../../components/delayed-loader.tsx';
import { useAccount, useTimeZone } from '../../lib/account.ts';
import { usePermission } from '../../lib/permission-gate.tsx';
import { MessageDelivery } from '../customer-app/index.ts';
import { CustomerMessageSection, EventDetailFrame, type EventFrame, Figure, SEES_CREATOR, Section, WindowFigures } from './event-detail-parts.tsx';
import {
  COST_TYPE_LABELS,
  DISPATCH_SCREEN_TEXTS,
  detailRefreshMs,
  eventLabel,
  formatAud,
  formatDispatchStart,
  formatPrice,
  localiseStamps,
  MEASUREMENT_TEXTS as M,
  percentNotIncluded,
  QUOTE_TEXTS,
  requestKind,
} from './event-format.ts';
import { PredictionGraph, RemainingChargeGraph } from './event-graphs.tsx';
import { type EventSource, useDispatch, useDispatchCost, useDispatchPrediction, useDispatchRemainingCharge, useDispatchResponse } from './event-source.ts';

function RequestSection({ d, zone, nowS }: { d: DispatchDetail; zone: string; nowS: number }) {
  const seesPowerFactor = usePermission(DISPATCH_POWER_FACTOR);
  const r = d.request;
  return (
    <Section title="Request">
      <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="md">
        <WindowFigures request={r} zone={zone} nowS={nowS} />
        <Figure label="Real power">
          {formatPower(r.realPowerP)} ({requestKind(r.realPowerP)})
        </Figure>
        <Figure label="Nodes requested">{r.deploymentsRequested}</Figure>
        <Figure label="Strategy">{r.strategy === 'greedy' ? 'Greedy' : 'Uniform'}</Figure>
        <Figure label="OpenADR id">{openadrEventId(d.id)}</Figure>
        {seesPowerFactor && (
          <Figure label="Power factor">
            {r.powerFactor === null
              ? '–'
              : `${r.powerFactor.toFixed(2)}${r.powerFactorLeadLag ? ` ${r.powerFactorLeadLag === 'LEADING' ? 'leading' : 'lagging'}` : ''}`}
          </Figure>
        )}
      </SimpleGrid>
    </Section>
  );
}

function ResponseSection({ d }: { d: DispatchDetail }) {
  const c = d.currentResponse;
  return (
    <Section title="Current Response">
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
        <Figure label="Delivered power">{formatPower(c.realPowerP)}</Figure>
        <Figure label="Rejected power">{formatPower(c.rejectedRealPowerP)}</Figure>
        <Figure label="Delivered energy">{formatEnergy(c.deliveredKwh)}</Figure>
        <Figure label="Nodes responded">
          {c.deploymentsResponded} of {d.request.deploymentsRequested}
        </Figure>
      </SimpleGrid>
    </Section>
  );
}

const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);
const pct = (v: number | null) => (v === null ? null : (v * 100).toFixed(1));

/** A figure and its parts by reason (only the reasons with energy). */
function ByReason({ total, parts, labels }: { total: number; parts: Record<string, number>; labels: Record<string, string> }) {
  const shown = Object.entries(parts).filter(([, v]) => Math.abs(v) >= 0.0005);
  return (
    <>
      {formatEnergy(total)}
      {shown.map(([k, v]) => (
        <Text size="xs" c="dimmed" key={k}>
          {formatEnergy(v)} {labels[k]}
        </Text>
      ))}
    </>
  );
}

type VenResponse = NonNullable<ReturnType<typeof useDispatchResponse>['data']>['data']['venResponses'][number];

/** Issue 31 item 3: what OpenADR VENs reported their resources delivered, counted in the response beside the console's own nodes. */
function VenSection({ lines }: { lines: VenResponse[] }) {
  return (
    <Section title="OpenADR VENs">
      <Stack gap="sm">
        <Text size="sm">
          What the VENs reported their resources delivered in this event's intervals. It is counted in the response beside the console's own nodes, and a
          resource enrolled as a node of the fleet is settled and credited as that node.
        </Text>
        <Table striped withTableBorder fz="sm" captionSide="top" aria-label="OpenADR VENs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>VEN</Table.Th>
              <Table.Th>Resource</Table.Th>
              <Table.Th>Enrolled as</Table.Th>
              <Table.Th>Intervals reported</Table.Th>
              <Table.Th>Delivered</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {lines.map((l) => (
              <Table.Tr key={`${l.source}/${l.resource}`}>
                <Table.Td>{l.source}</Table.Td>
                <Table.Td>{l.resource}</Table.Td>
                <Table.Td>{l.nodeId === null ? 'Not enrolled' : `Node ${l.nodeId}`}</Table.Td>
                <Table.Td>{Object.keys(l.series).length}</Table.Td>
                <Table.Td>{formatEnergy(l.deliveredKwh)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Section>
  );
}

/** Issue 33 item 1: requested, baseline, measured, delivered, rejected and not delivered, and the baseline's accuracy. */
/** An interval's price: its region's, or each region's when the measured nodes span several. */
const priceCell = (prices: Record<string, number>) => {
  const e = Object.entries(prices);
  if (!e.length) return '–';
  return e.length === 1 ? e[0][1].toFixed(2) : e.map(([r, p]) => `${r} ${p.toFixed(2)}`).join(', ');
};

function MeasurementSection({ m, zone, nowS, intervention }: { m: DispatchMeasurement; zone: string; nowS: number; intervention: boolean }) {
  const t = m.totals;
  const priced = !intervention && m.intervals.some((iv) => Object.keys(iv.prices).length > 0);
  return (
    <Section title={M.title}>
      <Stack gap="sm">
        <Text size="sm">{M.explain}</Text>
        <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="md">
          <Figure label={M.requested}>{formatEnergy(t.requestedKwh)}</Figure>
          <Figure label={M.baseline}>{formatEnergy(t.baselineKwh)}</Figure>
          <Figure label={M.measured}>{formatEnergy(t.measuredKwh)}</Figure>
          <Figure label={M.delivered}>{formatEnergy(t.deliveredKwh)}</Figure>
          <Figure label={M.rejected}>
            <ByReason total={sum(t.rejectedKwh)} parts={t.rejectedKwh} labels={M.rejectedReasons} />
          </Figure>
          <Figure label={M.notDelivered}>
            <ByReason total={sum(t.notDeliveredKwh)} parts={t.notDeliveredKwh} labels={M.notDeliveredReasons} />
          </Figure>
        </SimpleGrid>
        <Text size="sm" c="dimmed">
          {M.methods(m.baselineMethods)} {M.accuracy(pct(m.baselineError.median), m.baselineError.nodes)}{' '}
          {M.vppAccuracy(pct(m.vppBaselineError.median), m.vppBaselineError.dispatches)}
        </Text>
        {m.intervals.length > 0 && (
          <Text size="xs" c="dimmed">
            {intervention ? M.interventionCaption : priced ? M.pricedCaption : M.intervalsCaption}
          </Text>
        )}
        {m.intervals.length > 0 && (
          <Table.ScrollContainer minWidth={640} mah={320}>
            <Table striped withTableBorder fz="xs" stickyHeader>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Interval</Table.Th>
                  <Table.Th>{M.requested}</Table.Th>
                  <Table.Th>{M.baseline}</Table.Th>
                  <Table.Th>{M.measured}</Table.Th>
                  <Table.Th>{M.delivered}</Table.Th>
                  <Table.Th>{M.rejected}</Table.Th>
                  <Table.Th>{M.notDelivered}</Table.Th>
                  {intervention && <Table.Th>{M.interventionHeader}</Table.Th>}
                  {priced && <Table.Th>{M.priceHeader}</Table.Th>}
                  {priced && <Table.Th>{M.valueHeader}</Table.Th>}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {m.intervals.map((iv) => (
                  <Table.Tr key={iv.ts}>
                    <Table.Td>
                      {formatDispatchStart(iv.ts, zone, nowS)}
                      {iv.seconds < 300 ? ` (${iv.seconds} s)` : ''}
                    </Table.Td>
                    <Table.Td>{formatPower(iv.requestedKw)}</Table.Td>
                    <Table.Td>{formatPower(iv.baselineKw)}</Table.Td>
                    <Table.Td>{formatPower(iv.measuredKw)}</Table.Td>
                    <Table.Td>{formatPower(iv.deliveredKw)}</Table.Td>
                    <Table.Td>{formatPower(sum(iv.rejectedKw))}</Table.Td>
                    <Table.Td>{formatPower(sum(iv.notDeliveredKw))}</Table.Td>
                    {intervention && <Table.Td>{M.interventionMark}</Table.Td>}
                    {priced && <Table.Td>{priceCell(iv.prices)}</Table.Td>}
                    {priced && <Table.Td>{iv.valueAud === null ? '–' : `${iv.valueAud < 0 ? '-' : ''}$${Math.abs(iv.valueAud).toFixed(4)}`}</Table.Td>}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Section>
  );
}

const NOTICE_LABELS: Record<string, string> = { SHORT_NOTICE: 'Short notice', MEDIUM_NOTICE: 'Medium notice', LONG_NOTICE: 'Long notice' };

/** Issue 33 item 3: a RERT dispatch's AEMO instruction, its reserve contract and, once settled, the contract's payments. */
function RertSection({ r, zone, nowS, seesMarket }: { r: NonNullable<DispatchDetail['rert']>; zone: string; nowS: number; seesMarket: boolean }) {
  const c = r.contract;
  const p = r.payments;
  return (
    <Section title="AEMO Instruction and RERT Contract">
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="md">
          <Figure label="Instruction">{r.instruction.id}</Figure>
          <Figure label="Notice category">{NOTICE_LABELS[r.instruction.noticeCategory] ?? r.instruction.noticeCategory}</Figure>
          <Figure label="LOR condition">{r.instruction.lorCondition}</Figure>
          <Figure label="Pre-activated">{formatDispatchStart(r.instruction.preActivationTime, zone, nowS)}</Figure>
          <Figure label="Activated">{formatDispatchStart(r.instruction.activationTime, zone, nowS)}</Figure>
        </SimpleGrid>
        {seesMarket && (
          <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="md">
            <Figure label="Contract">{c.reference}</Figure>
            <Figure label="Contracted reserve">{formatPower(c.contractedMw * 1000)}</Figure>
            <Figure label="Availability">{formatAud(c.availabilityRate)}/MW per hour</Figure>
            <Figure label="Pre-activation">{formatPrice(c.preActivationRate)}</Figure>
            <Figure label="Activation">{formatPrice(c.activationRate)}</Figure>
            <Figure label="Usage">{formatPrice(c.usageRate)}</Figure>
          </SimpleGrid>
        )}
        {seesMarket && p && (
          <Text size="sm">
            Settled under the contract, not at spot: availability {formatAud(p.availability)} + pre-activation {formatAud(p.preActivation)} + activation{' '}
            {formatAud(p.activation)} + usage {formatAud(p.usage)} = {formatAud(p.total)}; customers’ share ({(c.customerShare * 100).toFixed(0)}%){' '}
            {formatAud(p.customers)}.
          </Text>
        )}
      </Stack>
    </Section>
  );
}

function CostSection({ cost, zone, nowS }: { cost: ReturnType<typeof useDispatchCost>; zone: string; nowS: number }) {
  const c = cost.data?.data;
  // Spec 3 §4: the warning belongs to a settled cost; an estimate's coverage grows as the data arrives.
  const missing = c?.type === 'SETTLED' ? percentNotIncluded(c.coverage) : null;
  return (
    <Section title="Cost">
      {!c ? (
        cost.isLoading ? (
          <DelayedLoader label="Loading cost" />
        ) : (
          <Text c="dimmed">–</Text>
        )
      ) : (
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
            <Figure label="Type">{COST_TYPE_LABELS[c.type]}</Figure>
            <Figure label={c.cost !== null && c.cost < 0 ? 'Revenue' : 'Cost'}>{c.cost === null ? '–' : formatAud(Math.abs(c.cost))}</Figure>
            <Figure label="Buy price">{c.buyPrice === null ? '–' : formatPrice(c.buyPrice)}</Figure>
            <Figure label="Sell price">{c.sellPrice === null ? '–' : formatPrice(c.sellPrice)}</Figure>
          </SimpleGrid>
          {c.reason && <Text c="dimmed">{c.reason}</Text>}
          <Stack gap={2} aria-label={QUOTE_TEXTS.title}>
            <Text size="sm">
              {c.quote
                ? QUOTE_TEXTS.quote(c.quote.cost, c.quote.tradingPrice, c.quote.forecastSource, formatDispatchStart(c.quote.forecastIssuedAt, zone, nowS))
                : QUOTE_TEXTS.noQuote}
            </Text>
            {c.quote && c.difference !== null && c.type !== 'DISPATCH_NOT_STARTED' && <Text size="sm">{QUOTE_TEXTS.difference(c.type, c.difference)}</Text>}
          </Stack>
          {missing && (
            <Alert color="yellow" icon={<IconAlertTriangle size={16} />}>
              {DISPATCH_SCREEN_TEXTS.partialSettlement(missing)}
            </Alert>
          )}
        </Stack>
      )}
    </Section>
  );
}

function AuditSection({ d, zone, nowS, showNames }: { d: DispatchDetail; zone: string; nowS: number; showNames: boolean }) {
  const verb = { CREATED: 'Created', CHANGED: 'Changed', CANCELLED: 'Cancelled' } as const;
  return (
    <Section title="History">
      <Stack gap={4}>
        {d.audit.map((a) => (
          <Text size="sm" key={`${a.action}-${a.at}`}>
            {verb[a.action]}
            {showNames ? ` by ${a.by}` : ''} on {formatDispatchStart(a.at, zone, nowS)}
            {a.detail ? ` (${localiseStamps(a.detail, zone, nowS)})` : ''}
          </Text>
        ))}
      </Stack>
    </Section>
  );
}

/** What differs between the detail pages of the kinds of dispatch event (a dispatch, a RERT dispatch). */
export interface EventDetailConfig extends EventFrame {
  source: EventSource;
  /** 'Dispatch', 'RERT Dispatch': the title's first word(s). */
  noun: string;
  /** The page's buttons for the event as it now is (`nowS`: when it was fetched). */
  actions: (d: DispatchDetail, nowS: number) => ReactNode;
}

/**
 * An event's detail page as a dispatch shows it (spec 3 §2.4): state, request, response, graphs,
 * cost (for those who see market data, where the kind has one) and history; refreshed by the periods
 * of spec 3 §4. The kind gives its calls, words and buttons.
 */
export function EventDetailView({ id, config }: { id: number; config: EventDetailConfig }) {
  const zone = useTimeZone();
  const { data: account } = useAccount();
  const source = config.source;
  const detail = useDispatch(id, source);
  const d = detail.data?.data;
  const nowMs = detail.dataUpdatedAt || Date.now();
  const nowS = nowMs / 1000;
  const refresh = d ? detailRefreshMs(d, Date.now()) : false;
  const loaded = !!d && !detail.isError;
  const seesMarket = !!account && canSeeMarketData(account.suborg_type, account.permissions) && !!source.cost;
  // Past the prediction horizon there is no prediction yet (the server refuses it): the page says so.
  const tooFar = !!d && dispatchPredictionStart(d.request.startTime) > Date.now() / 1000 + PREDICTION_HORIZON_S;
  const prediction = useDispatchPrediction(id, refresh, loaded && !tooFar, source);
  const response = useDispatchResponse(id, refresh, loaded, source);
  const remaining = useDispatchRemainingCharge(id, refresh, loaded, source);
  const cost = useDispatchCost(id, refresh, loaded && seesMarket, source);
  const showNames = usePermission(SEES_CREATOR);

  return (
    <EventDetailFrame
      id={id}
      frame={config}
      detail={{ event: d, isLoading: detail.isLoading, error: detail.error }}
      title={(_, notFound) => (notFound ? `${config.noun} not found` : `${config.noun} ${id}`)}
      actions={(e) => config.actions(e, nowS)}
      label={eventLabel}
      vpp={(e) => e.powerstation.name}
    >
      {(d) => (
        <>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
            <RequestSection d={d} zone={zone} nowS={nowS} />
            <ResponseSection d={d} />
          </SimpleGrid>
          <PredictionGraph dispatch={d} prediction={prediction.data?.data} response={response.data?.data} zone={zone} tooFar={tooFar} />
          <RemainingChargeGraph dispatch={d} remaining={remaining.data?.data} prediction={prediction.data?.data} zone={zone} />
          {d.rert && <RertSection r={d.rert} zone={zone} nowS={nowS} seesMarket={!!account && canSeeMarketData(account.suborg_type, account.permissions)} />}
          {response.data?.data.measurement && (
            <MeasurementSection m={response.data.data.measurement} zone={zone} nowS={nowS} intervention={d.reason === 'RERT'} />
          )}
          {!!response.data?.data.venResponses?.length && <VenSection lines={response.data.data.venResponses} />}
          {seesMarket && <CostSection cost={cost} zone={zone} nowS={nowS} />}
          {d.customerMessage && <CustomerMessageSection title={d.customerMessage.title} text={d.customerMessage.text} />}
          {d.customerMessage && <MessageDelivery eventId={id} zone={zone} />}
          <AuditSection d={d} zone={zone} nowS={nowS} showNames={showNames} />
        </>
      )}
    </EventDetailFrame>
  );
}
