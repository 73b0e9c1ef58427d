// How a ticker as people write it names the ticker as EDGAR's maps write it.
import { expect, it } from 'vitest';
import { tickerOf } from '../resolvers/entities.ts';

it('writes a class or series suffix with a hyphen, as EDGAR does, up to a warrant series of three characters', () => {
  expect(tickerOf('aapl')).toBe('AAPL');
  expect(tickerOf('BRK.B')).toBe('BRK-B');
  expect(tickerOf('brk/b')).toBe('BRK-B');
  expect(tickerOf('BAC-PL')).toBe('BAC-PL');
  // warrant series EDGAR lists (company_tickers.json): Noble's, Ouster's
  expect(tickerOf('NE-WTA')).toBe('NE-WTA');
  expect(tickerOf('OUST.WTA')).toBe('OUST-WTA');
  expect(tickerOf('NE-WTAB')).toBeNull();
  expect(tickerOf('APPLE INC')).toBeNull();
});
