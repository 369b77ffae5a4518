import { Service } from 'typedi';

/** The counter's state and rules, kept out of the tool class so it can be injected and replaced in tests. */
@Service()
export class CounterService {
  private count = 0;

  get value(): number {
    return this.count;
  }

  add(by: number): number {
    this.count += by;
    return this.count;
  }

  reset(): number {
    this.count = 0;
    return this.count;
  }
}
