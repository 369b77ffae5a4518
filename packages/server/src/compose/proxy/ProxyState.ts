/** What the parts of one `ProxiedServer` share: its name in messages, and whether it was stopped. */
export interface ProxyState {
  /** `upstream '<name>'`: `options.name`, else the name the upstream reports. */
  label: string;
  stopped: boolean;
}
