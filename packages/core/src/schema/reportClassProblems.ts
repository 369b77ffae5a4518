import type { Class } from '../metadata/Class';
import { inputName, isExcludedFromInput } from './class-transformer';
import type { DtoProperty } from './class-validator';
import type { DtoWalk } from './DtoWalk';
import { documentedProperties } from './propertyDocs';
import { propertyWhere, reportProblem } from './reportProblem';
import { compileDtoBuilder } from '../validation/compileDtoBuilder';

/** Reports the fields of `cls` that class-validator or class-transformer would never validate or copy. */
export function reportClassProblems(cls: Class, props: readonly DtoProperty[], walk: DtoWalk): void {
  reportDocsWithoutValidation(cls, props, walk);
  reportUndecoratedFields(cls, props, walk);
  if (walk.input) reportObjectMemberNames(cls, props, walk);
}

/** `@Property` on a field without class-validator decorators: whitelisting would reject it. */
function reportDocsWithoutValidation(cls: Class, props: readonly DtoProperty[], { ctx }: DtoWalk): void {
  const validated = new Set(props.map((p) => p.name));
  for (const name of documentedProperties(cls)) {
    if (validated.has(name)) continue;
    reportProblem(
      ctx,
      propertyWhere(ctx, cls, name),
      'has @Property() but no class-validator decorator, so it is not part of the schema and class-validator rejects it as an unknown property',
      'add a class-validator decorator such as @IsString() (or @Allow() to accept any value)',
    );
  }
}

/**
 * A field declared without any decorator (`discountCode!: string`) leaves no metadata, so
 * class-validator never hears of it: it would be missing from the schema and refused as an
 * unknown property. Compiled for ES2022 or later (class fields defined, the default of
 * `target: "ES2022"`), the field is an own property of a new instance, which shows it. A
 * class whose constructor needs arguments, or throws, is not built here; older targets
 * leave no trace (the ESLint rule `dto-property-decorated` sees those).
 */
function reportUndecoratedFields(cls: Class, props: readonly DtoProperty[], { ctx }: DtoWalk): void {
  if (cls.length > 0) return;
  let instance: object;
  try {
    instance = new cls() as object;
  } catch {
    return;
  }
  const known = new Set([...props.map((p) => p.name), ...documentedProperties(cls)]);
  for (const name of Object.keys(instance)) {
    if (known.has(name) || isExcludedFromInput(cls, name)) continue;
    reportProblem(
      ctx,
      propertyWhere(ctx, cls, name),
      'has no decorator, so class-validator never sees it: it is missing from the schema and a value sent for it is refused as an unknown property',
      'add a class-validator decorator such as @IsString() (with @IsOptional() if it may be absent; @ValidateNested() and @Type(() => Child) for a nested DTO), or @Allow() to accept any value',
    );
  }
}

/**
 * A property named after a member of every object (`constructor`, `toString`, `hasOwnProperty`,
 * ...): class-validator groups a class's constraints in a plain object keyed by property name,
 * and class-transformer skips such keys when it copies, so every call that needs them failed
 * with a TypeError. A root class whose constraints (its nested classes' too) its schema
 * expresses is built without them (`compileDtoBuilder`), and takes such names.
 */
function reportObjectMemberNames(cls: Class, props: readonly DtoProperty[], walk: DtoWalk): void {
  const clashing = props.filter(({ name }) => name in Object.prototype && inputName(cls, name) !== '__proto__');
  if (clashing.length === 0 || compileDtoBuilder(walk.root)) return;
  for (const { name } of clashing) {
    reportProblem(
      walk.ctx,
      propertyWhere(walk.ctx, cls, name),
      `is named after a member of every object (Object.prototype.${name}), which class-validator and class-transformer cannot validate or copy`,
      'rename the property, or keep the DTO (with the classes it nests) to constraints its JSON Schema expresses (@IsString, @IsNumber, @IsInt, @IsBoolean, @IsIn, @IsEnum, @Min, @Max, @Length, @IsOptional, @ValidateNested with @Type; no format or custom validators, @Transform, @Expose or @Exclude), which Toolwright checks without those libraries.',
    );
  }
}
