import { Service } from 'typedi';

export interface Conditions {
  temperature: number;
  conditions: string;
}

/** A stand-in for a real weather API: deterministic readings per city, so tests can assert them. */
@Service()
export class WeatherService {
  private readonly readings: Record<string, Conditions> = {
    tokyo: { temperature: 22, conditions: 'Partly cloudy' },
    paris: { temperature: 14, conditions: 'Light rain' },
    'new york': { temperature: 18, conditions: 'Sunny' },
  };

  current(city: string): Conditions | undefined {
    return this.readings[city.trim().toLowerCase()];
  }

  knownCities(): string[] {
    return Object.keys(this.readings);
  }
}
