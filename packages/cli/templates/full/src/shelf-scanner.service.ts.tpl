import { Service } from 'typedi';

/**
 * Walks the shelves of a branch, one at a time: slow in a real library (a database scan, a
 * call to another system), behind a service so tests can make it instant
 * (`createTestClient(app, { overrides: [[ShelfScanner, fast]] })`).
 */
@Service()
export class ShelfScanner {
  readonly shelves = ['A', 'B', 'C', 'D'] as const;

  /** The overdue loans on one shelf; stops early when `signal` aborts (the task was cancelled). */
  async overdueOn(shelf: string, signal: AbortSignal): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, 500);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      });
    });
    return shelf.charCodeAt(0) % 3;
  }
}
