import type { Class } from '../metadata/Class';
import type { DtoConverterTable } from './dtoConverters';
import type { Recursion } from './findRecursion';
import type { JsonSchema } from './JsonSchema';
import type { SchemaContext } from './SchemaContext';

/** What deriving one DTO schema shares across its classes and properties (made once per `dtoSchema` call). */
export interface DtoWalk {
  /** The class the schema is derived for: its instances are built with or without the libraries, nested ones alike. */
  readonly root: Class;
  readonly ctx: SchemaContext;
  readonly converters: DtoConverterTable;
  readonly coerce: boolean;
  /** Deriving an input schema (values come from JSON through plainToInstance). */
  readonly input: boolean;
  /** The classes and union branches on a reference cycle: their references are `$ref`s to `$defs` entries. */
  readonly recursion: Recursion;
  /** Property schemas with a `default`, checked against their own schema once the walk has filled `$defs`. */
  readonly defaults: { readonly at: string; readonly property: string; readonly schema: JsonSchema }[];
}
