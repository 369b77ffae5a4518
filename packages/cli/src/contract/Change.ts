/**
 * How a change affects existing clients: `breaking` can make a working client fail,
 * `additive` only offers more, `info` changes no behaviour a client relies on (wording).
 */
export type Severity = 'breaking' | 'additive' | 'info';

export interface Change {
  readonly severity: Severity;
  /** Where, e.g. `tool get_weather, input location`. */
  readonly where: string;
  readonly message: string;
}
