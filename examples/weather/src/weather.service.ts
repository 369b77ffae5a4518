import { Service } from 'typedi';

export interface Conditions {
  temperature: number;
  conditions: string;
}

/** A stand-in for a real weather API: deterministic readings per city, so tests can assert them. */
@Service()
export class WeatherService {
  // A Map, not an object literal: the city comes from the model, and a plain object would
  // answer 'constructor' or '__proto__' with what every object inherits.
  private readonly readings = new Map<string, Conditions>([
    ['tokyo', { temperature: 22, conditions: 'Partly cloudy' }],
    ['paris', { temperature: 14, conditions: 'Light rain' }],
    ['new york', { temperature: 18, conditions: 'Sunny' }],
  ]);

  current(city: string): Conditions | undefined {
    return this.readings.get(city.trim().toLowerCase());
  }

  knownCities(): string[] {
    return [...this.readings.keys()];
  }
}
