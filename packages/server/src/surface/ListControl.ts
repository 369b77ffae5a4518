/**
 * Changes one of an app's lists at runtime. Every live connection is told with a
 * (debounced) `list_changed` notification. Each method returns false when nothing has that key.
 */
export interface ListControl {
  /** Serves it again after `disable`. */
  enable(key: string): boolean;
  /** Hides it from lists and refuses it (as unknown) until `enable`. */
  disable(key: string): boolean;
  /** Removes it for good. */
  remove(key: string): boolean;
}
