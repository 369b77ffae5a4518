import { Param, Tool } from '@toolwright/core';
import { Inject, Service, Token } from 'typedi';

// #region service
@Service()
export class ExchangeRates {
  private readonly perEuro: Record<string, number> = { EUR: 1, USD: 1.08, JPY: 162.4 };

  rate(from: string, to: string): number | undefined {
    // Codes come from the client: look them up as own keys only, so 'constructor' is no currency.
    if (!Object.hasOwn(this.perEuro, from) || !Object.hasOwn(this.perEuro, to)) return undefined;
    return this.perEuro[to]! / this.perEuro[from]!;
  }
}

@Service()
export class CurrencyTools {
  constructor(private readonly rates: ExchangeRates) {} // injected by typedi

  @Tool({ description: 'Convert an amount between currencies (EUR, USD, JPY).' })
  convert(@Param('amount') amount: number, @Param('from') from: string, @Param('to') to: string) {
    const rate = this.rates.rate(from, to);
    return rate === undefined ? `No rate for ${from} -> ${to}.` : `${(amount * rate).toFixed(2)} ${to}`;
  }
}
// #endregion service

// #region token
export interface Clock {
  now(): Date;
}
export const CLOCK = new Token<Clock>('clock');

@Service()
export class TimeTools {
  constructor(@Inject(CLOCK) private readonly clock: Clock) {}

  @Tool({ description: 'The current time in UTC.' })
  now() {
    return this.clock.now().toISOString();
  }
}
// Somewhere at startup, before createApp:
//   Container.set(CLOCK, { now: () => new Date() });
// #endregion token
