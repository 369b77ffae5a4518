import type { ClassTransformOptions } from 'class-transformer';
import type { ValidationError, ValidatorOptions } from 'class-validator';
import type { Class } from '../metadata/Class';
import { loadClassValidator } from '../schema/class-validator';
import { inputName, loadPlainToInstance } from '../schema/class-transformer';
import type { ValidationIssue, ValidationOutcome } from './ValidationIssue';

export interface DtoValidatorOptions {
  /** Convert JSON values to the reflected types (`'5'` -> 5) before validating. Off by default in the build. */
  readonly coerce: boolean;
}

/** Validates one JSON value against a DTO class; on success the value is a `cls` instance. */
export type DtoValidator = (plain: unknown) => Promise<ValidationOutcome<object>>;

/** Message for a property the DTO does not declare (class-validator's own names the property again). */
export const UNKNOWN_PROPERTY_MESSAGE = 'is not allowed (unknown property)';

/**
 * Compiles the validator of a DTO class: `plainToInstance` (nested classes and dates via
 * `@Type`), then class-validator with whitelisting, so unknown properties are rejected at
 * every level. Options are fixed here once; a call only transforms and validates.
 */
export function compileDtoValidator(cls: Class, options: DtoValidatorOptions): DtoValidator {
  const transformOptions: ClassTransformOptions = Object.freeze({ enableImplicitConversion: options.coerce });
  const validatorOptions: ValidatorOptions = Object.freeze({ whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true });
  const plainToInstance = loadPlainToInstance();
  const { validate } = loadClassValidator();
  return async (plain) => {
    if (!isPlainObject(plain)) return { ok: false, issues: [{ path: '', message: `must be an object, got ${describe(plain)}` }] };
    const instance = plainToInstance(cls, plain, transformOptions) as object;
    const errors = await validate(instance, validatorOptions);
    if (errors.length === 0) return { ok: true, value: instance };
    const issues: ValidationIssue[] = [];
    collectIssues(errors, '', issues);
    return { ok: false, issues };
  };
}

/** JSON objects only: arrays, null, class instances and primitives are not DTO input. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an instance of a class' : typeof value;
}

/**
 * One issue per failed constraint, depth first. class-validator nests errors: an object's
 * error has its properties' errors as children; an array's has one child per failing
 * element whose `target` is the array itself, which is how indexes are told from keys.
 */
function collectIssues(errors: readonly ValidationError[], parent: string, out: ValidationIssue[]): void {
  for (const error of errors) {
    const path = joinPath(parent, error);
    for (const [kind, message] of Object.entries(error.constraints ?? {})) {
      out.push({ path, message: kind === 'whitelistValidation' ? UNKNOWN_PROPERTY_MESSAGE : message });
    }
    if (error.children && error.children.length > 0) collectIssues(error.children, path, out);
  }
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function joinPath(parent: string, error: ValidationError): string {
  const { target, property } = error;
  // `forbidUnknownValues` errors concern the object itself and carry no property.
  if (property === undefined || property === '') return parent;
  if (Array.isArray(target)) return `${parent}[${property}]`;
  // Report the key the client sent: `@Expose({ name })` renames input keys.
  const owner = target?.constructor;
  const key = typeof owner === 'function' && owner !== Object ? inputName(owner as Class, property) : property;
  if (!IDENTIFIER.test(key)) return `${parent}[${JSON.stringify(key)}]`;
  return parent ? `${parent}.${key}` : key;
}
