import { Param, Tool, UiResource } from '@toolwright/core';
import { Service } from 'typedi';
import { CounterState } from './counter.dto';
import { CounterService } from './counter.service';

const VIEW = 'ui://counter/view';

// The view: views/counter.html, read once at start-up (the path is relative to this module,
// which runs from src/ in tests and from dist/ in production: both are beside views/).
@UiResource(VIEW, { file: '../views/counter.html', title: 'Counter', description: 'The counter, with buttons that change it.', prefersBorder: true })
@Service()
export class CounterApp {
  constructor(private readonly counter: CounterService) {}

  @Tool({
    description: 'Show the counter in an interactive view. Use when the user asks to see or work with the counter.',
    annotations: { readOnlyHint: true },
    output: CounterState,
    ui: { resource: VIEW },
  })
  showCounter(): CounterState {
    return this.state();
  }

  // App-only: the view's buttons call it; hosts keep it from the model, and Toolwright lists it
  // only to clients that render views. Its arguments are validated like any tool's.
  @Tool({ description: 'Add to the counter (called by the view).', output: CounterState, ui: { resource: VIEW, visibility: ['app'] } })
  addToCounter(@Param('by', { integer: true, minimum: -100, maximum: 100, description: 'How much to add, -100 to 100' }) by: number): CounterState {
    this.counter.add(by);
    return this.state();
  }

  @Tool({ description: 'Reset the counter to zero (called by the view).', output: CounterState, ui: { resource: VIEW, visibility: ['app'] } })
  resetCounter(): CounterState {
    this.counter.reset();
    return this.state();
  }

  private state(): CounterState {
    const count = this.counter.value;
    return { count, text: `The counter is at ${count}.` };
  }
}
