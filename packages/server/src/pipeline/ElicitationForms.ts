import type { Class, ElicitationSchema } from '@toolwright/core';
import { compileElicitationForm, type ElicitationForm } from '@toolwright/core/internal';

/** How many distinct raw schemas an app keeps compiled; past it, the oldest is compiled again when next used. */
const MAX_SCHEMAS = 256;

/**
 * The compiled elicitation forms of one app. A DTO class is compiled once, and kept while the
 * class lives. A raw schema is compiled once per distinct content (its JSON), not per object:
 * a tool that writes its schema as a literal in the call makes a new object on every call, and
 * keying those by identity compiled each one again and tied the compiled form to the object,
 * so whatever kept a sent `elicitation/create` (an HTTP session's event store keeps every
 * event for replay) kept a compiled validator per call. The form sent is a copy made from the
 * JSON, so a schema object the tool changes later changes neither the cache nor a sent request.
 */
export class ElicitationForms {
  private readonly classes = new WeakMap<Class, ElicitationForm>();
  /** By JSON text, in insertion order: the first key is the oldest. */
  private readonly schemas = new Map<string, ElicitationForm>();

  constructor(private readonly maxSchemas = MAX_SCHEMAS) {}

  /** The compiled form of `form`; compiles it on first use. Throws the `BuildError` of an invalid form. */
  of(form: Class | ElicitationSchema): ElicitationForm {
    if (typeof form === 'function') {
      let compiled = this.classes.get(form);
      if (!compiled) {
        compiled = compileElicitationForm(form);
        this.classes.set(form, compiled);
      }
      return compiled;
    }
    const key = JSON.stringify(form);
    let compiled = this.schemas.get(key);
    if (!compiled) {
      compiled = compileElicitationForm(JSON.parse(key) as ElicitationSchema);
      if (this.schemas.size >= this.maxSchemas) this.schemas.delete(this.schemas.keys().next().value as string);
      this.schemas.set(key, compiled);
    }
    return compiled;
  }

  /** How many raw schemas are kept compiled. */
  get schemaCount(): number {
    return this.schemas.size;
  }
}
