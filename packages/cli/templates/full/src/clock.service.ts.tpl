import { Service } from 'typedi';

/** The time, behind a service so tests can replace it (`createTestClient(app, { overrides: [[ClockService, fake]] })`). */
@Service()
export class ClockService {
  now(): Date {
    return new Date();
  }
}
