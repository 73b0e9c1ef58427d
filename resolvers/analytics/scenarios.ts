// The stress-test scenario catalog (SPEC 4.5/4.6): GET /v1/portfolio/stress-test/scenarios lists
// it and POST /v1/portfolio/stress-test runs any of its entries by id. Data only: stress.ts says
// how each kind is applied.
//
// Historical scenarios are windows of real dates (peak to trough, or the episode's span); a
// holding is stressed with its own closes over the window where its file covers it, else with its
// factor exposures times the factors' compounded returns over the window.
//
// Hypothetical scenarios are instantaneous factor shocks (fractions: −0.2 is −20 %) applied to the
// holdings' factor exposures. They are stylised: chosen by judgment to describe an episode, not
// estimated from data; each description says what the numbers stand for.

export interface StressScenario {
  id: string;
  kind: 'historical' | 'hypothetical';
  title: string;
  /** historical: the episode, inclusive dates */
  window?: { from: string; to: string };
  /** hypothetical: per factor, its return in the scenario (a fraction) */
  shocks?: Record<string, number>;
  description: string;
}

export const stressScenarios: readonly StressScenario[] = [
  {
    id: 'gfc_2008',
    kind: 'historical',
    title: 'Global financial crisis, 2007–2009',
    window: { from: '2007-10-09', to: '2009-03-09' },
    description: 'The S&P 500 from its October 2007 peak to its March 2009 low: the credit crisis, the failure of Lehman Brothers and the recession that followed.',
  },
  {
    id: 'lehman_2008',
    kind: 'historical',
    title: 'Lehman Brothers failure, autumn 2008',
    window: { from: '2008-09-12', to: '2008-11-20' },
    description: 'From the last trading day before Lehman Brothers filed for bankruptcy (15 September 2008) to the November 2008 low.',
  },
  {
    id: 'covid_2020',
    kind: 'historical',
    title: 'COVID-19 crash, 2020',
    window: { from: '2020-02-19', to: '2020-03-23' },
    description: 'The S&P 500 from its February 2020 peak to its March 2020 low, as the pandemic closed economies.',
  },
  {
    id: 'rates_2022',
    kind: 'historical',
    title: 'Rate shock, 2022',
    window: { from: '2022-01-03', to: '2022-10-12' },
    description: 'From the first trading day of 2022 to the October 2022 low, as the Federal Reserve raised rates from near zero and long yields rose by more than two percentage points.',
  },
  {
    id: 'market_down_20',
    kind: 'hypothetical',
    title: 'Equity market down 20 %',
    shocks: { 'Mkt-RF': -0.2 },
    description: 'The market factor (Mkt-RF, the market\'s return over the risk-free rate) falls 20 %; every other factor is unchanged, so a holding loses 20 % × its market beta.',
  },
  {
    id: 'rates_up_100bp',
    kind: 'hypothetical',
    title: 'Rates up 100 bp',
    shocks: { 'Mkt-RF': -0.05, SMB: -0.01, HML: 0.03, CMA: 0.02 },
    description:
      'A stylised mapping of a 100 bp rise in Treasury yields to factor returns, chosen by judgment (not estimated): Mkt-RF −5 % (a higher discount rate lowers equity values), HML +3 % and CMA +2 % ' +
      '(value and conservatively investing firms have nearer cash flows than growth firms, so they fall less, as in 2022), SMB −1 % (small firms depend more on floating-rate borrowing). RMW and Mom are unchanged.',
  },
  {
    id: 'value_rotation',
    kind: 'hypothetical',
    title: 'Rotation from growth and momentum into value',
    shocks: { HML: 0.1, Mom: -0.1 },
    description: 'Value beats growth by 10 % (HML +10 %) while recent winners give back 10 % against recent losers (Mom −10 %), as in late 2000 or November 2020; the market is unchanged.',
  },
  {
    id: 'small_cap_selloff',
    kind: 'hypothetical',
    title: 'Small-cap sell-off',
    shocks: { SMB: -0.08, 'Mkt-RF': -0.03 },
    description: 'Small firms lag large ones by 8 % (SMB −8 %) in a mild market decline (Mkt-RF −3 %), as when credit tightens for smaller borrowers.',
  },
  {
    id: 'quality_flight',
    kind: 'hypothetical',
    title: 'Flight to quality',
    shocks: { 'Mkt-RF': -0.1, RMW: 0.05 },
    description: 'The market falls 10 % (Mkt-RF −10 %) while profitable firms beat unprofitable ones by 5 % (RMW +5 %), as investors sell speculative names first.',
  },
];

export const scenarioById = new Map(stressScenarios.map((s) => [s.id, s]));
